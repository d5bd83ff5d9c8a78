import { and, eq } from "drizzle-orm";
import { judgePassword, passwordWeaknessMessage, type PasswordOwner } from "@voltio/domain/password-strength";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { InvalidInput } from "../../errors";
import { hashIsWeak, hashPassword } from "./password";

/**
 * A new password (registration, change, reset) must pass the domain's strength rule for this account: a 400
 * naming the field and the reason otherwise. Logins never check it, so an older, weaker password keeps
 * working until the next change.
 */
export async function requireStrongPassword(field: string, password: string, owner: PasswordOwner) {
  const { weakness } = await judgePassword(password, owner);
  if (weakness) throw new InvalidInput(field, passwordWeaknessMessage(weakness));
}

/**
 * After a successful login: a hash made at a lower cost than today's is made again from the password just
 * typed, the only moment the server knows it. Only if it is still the stored one (a password change at the
 * same moment wins).
 */
export async function upgradeHashIfWeak(
  db: Db,
  user: { id: number; passwordHash: string | null },
  password: string,
) {
  if (!user.passwordHash || !hashIsWeak(user.passwordHash)) return;
  const passwordHash = await hashPassword(password);
  await db
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)));
}

import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { users } from "../src/db/schema";
import { newTotpSecret, TOTP_PERIOD_SECONDS } from "../src/modules/auth/second-factor/codes";
import { startPendingLogin } from "../src/modules/auth/second-factor/pending-login";
import { sealSecret } from "../src/modules/auth/second-factor/secret-box";
import type { TestContext } from "./app";

/** The authenticator app's code for a secret now (or `steps` 30-second steps away), as a phone shows it. */
export const totpCode = (secret: string, steps = 0) =>
  TOTP.generate({
    secret: Secret.fromBase32(secret),
    timestamp: Date.now() + steps * TOTP_PERIOD_SECONDS * 1000,
  });

/**
 * A fresh account with the authenticator app on, whose password was just accepted: the login's second
 * step's token and a right code for it.
 */
export async function pendingTotpLogin(t: TestContext): Promise<{ token: string; code: string }> {
  const secret = newTotpSecret();
  const [user] = await t.database.db
    .insert(users)
    .values({
      firstName: "Two",
      lastName: "Step",
      email: `two-step-${randomUUID()}@voltio.test`,
      passwordHash: "unused",
      totpEnabledAt: new Date(),
    })
    .returning({ id: users.id });
  await t.database.db
    .update(users)
    .set({ totpSecret: sealSecret(t.config.jwtSecret, user!.id, secret) })
    .where(inArray(users.id, [user!.id]));
  const { token } = await startPendingLogin(t.database.db, user!.id);
  return { token, code: totpCode(secret) };
}

/**
 * The set-up of the authenticator app started (not confirmed) for these accounts, with one secret: a code
 * that is wrong for it, whatever the time.
 */
export async function startedTotpSetUps(t: TestContext, userIds: number[]): Promise<{ wrongCode: string }> {
  const secret = newTotpSecret();
  for (const id of userIds)
    await t.database.db
      .update(users)
      .set({
        totpSecret: sealSecret(t.config.jwtSecret, id, secret),
        totpEnabledAt: null,
        totpLastStep: null,
      })
      .where(inArray(users.id, [id]));
  const right = new Set([-1, 0, 1].map((steps) => totpCode(secret, steps)));
  let wrong = 0;
  while (right.has(String(wrong).padStart(6, "0"))) wrong += 1;
  return { wrongCode: String(wrong).padStart(6, "0") };
}

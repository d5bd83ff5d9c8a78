import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";

/** The address an erased account keeps: unique, and one nobody reads. */
export const deletedAddress = (userId: number) => `deleted-user-${userId}@deleted.invalid`;

/** Anonymised accounts (a deleted user) keep an address nobody reads: they get no mail. */
export const isDeletedAddress = (email: string) => email.toLowerCase().endsWith("@deleted.invalid");

/** Where to write to a buyer; null for an erased account, which gets no mail. */
export async function buyerEmail(tx: Db, userId: number): Promise<string | null> {
  const [buyer] = await tx
    .select({ email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId));
  return !buyer || buyer.deletedAt || isDeletedAddress(buyer.email) ? null : buyer.email;
}

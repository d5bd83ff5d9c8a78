import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { isDeletedAddress } from "../orders/admin-mail";

/** Where to write to a buyer; null for an erased account, which gets no mail. */
export async function buyerEmail(tx: Db, userId: number): Promise<string | null> {
  const [buyer] = await tx
    .select({ email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId));
  return !buyer || buyer.deletedAt || isDeletedAddress(buyer.email) ? null : buyer.email;
}

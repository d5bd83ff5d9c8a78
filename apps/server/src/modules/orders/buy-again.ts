import { and, eq, inArray } from "drizzle-orm";
import type { BuyAgainReply } from "@voltio/domain/purchase";
import type { Db } from "../../db/client";
import { orders } from "../../db/schema";
import { lockVariants, sellable } from "../inventory/stock";
import type { LoadedPurchase } from "./purchase-read-model";

/**
 * "Buy again": the purchase's variants go into the buyer's cart, one cart line per
 * variant (added to a line already there), each capped at what can be sold now. What didn't fit is listed,
 * so the page can say which products are gone or short.
 */
export async function buyAgain(db: Db, userId: number, purchase: LoadedPurchase): Promise<BuyAgainReply> {
  const asked = new Map<number, { productId: number; title: string; amount: number }>();
  for (const line of purchase.lines) {
    const entry = asked.get(line.variantId);
    asked.set(line.variantId, {
      productId: line.productId,
      title: line.title,
      amount: (entry?.amount ?? 0) + line.amount,
    });
  }
  return db.transaction(async (tx) => {
    // Variants before the cart lines, unlike the lock order of inventory/stock.ts: a cart line this adds may
    // not exist yet, and only the variant's lock makes two Buy agains of the same variant take turns (the
    // second then sees the first's line instead of breaking the one-cart-line-per-variant index). Only the
    // shopper's own cart writes take these cart lines.
    const stocks = await lockVariants(tx, asked.keys());
    const cart = await tx
      .select({ id: orders.id, variantId: orders.variantId, amount: orders.amount })
      .from(orders)
      .where(
        and(
          eq(orders.userId, userId),
          eq(orders.status, "inCart"),
          inArray(orders.variantId, [...asked.keys()]),
        ),
      )
      .for("update");
    const cartLineOf = new Map(cart.map((line) => [line.variantId, line]));
    const reply: BuyAgainReply = { added: [], missing: [] };
    for (const [variantId, { productId, title, amount }] of asked) {
      const stock = sellable(stocks.get(variantId));
      const line = cartLineOf.get(variantId);
      const inCart = line?.amount ?? 0;
      const added = Math.max(0, Math.min(inCart + amount, stock) - inCart);
      if (added > 0) {
        if (line)
          await tx
            .update(orders)
            .set({ amount: inCart + added, updatedAt: new Date() })
            .where(eq(orders.id, line.id));
        else
          await tx.insert(orders).values({ userId, productId, variantId, status: "inCart", amount: added });
        reply.added.push({ productId, title, asked: amount, added });
      }
      if (added < amount) reply.missing.push({ productId, title, asked: amount, added });
    }
    return reply;
  });
}

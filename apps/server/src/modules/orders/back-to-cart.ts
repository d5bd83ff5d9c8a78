import { and, eq } from "drizzle-orm";
import { checkoutTotals } from "@voltio/domain/checkout";
import type { OrderUpdateReply } from "@voltio/domain/orders";
import type { Db } from "../../db/client";
import { bulkOrders, orders } from "../../db/schema";
import { InvalidInput, NotFound } from "../../errors";
import { lockVariants, releaseShopperHolds, sellable } from "../inventory/stock";

/**
 * Taking a line back from checkout (ADR 0015): PUT /order/:id {status: "inCart"} on a pending
 * line, bought alone or inside a pending bulk order. It becomes a cart line again, priced today like any cart
 * line; with a cart line of that variant already there (one per user and variant) the two merge, capped at
 * what is left. A line inside an open checkout leaves it as DELETE /order/:id leaves it (ADR 0013): the
 * checkout's units go back to the other shoppers, and the next Pay replaces it.
 */

const columns = {
  id: orders.id,
  status: orders.status,
  amount: orders.amount,
  productId: orders.productId,
  variantId: orders.variantId,
};

/** What a pending line loses on its way back to the cart: it is no purchase any more. */
const NOT_A_PURCHASE = {
  status: "inCart" as const,
  bulkOrderId: null,
  unitPriceCents: null,
  lineTotalCents: null,
  shippingCostCents: null,
  salePercentage: null,
  discountedUnits: null,
  localPurchaseDate: null,
  serverPurchaseDate: null,
  checkoutId: null,
  purchaseId: null,
  shippingAddress: null,
};

export async function backToCart(db: Db, userId: number, id: number): Promise<OrderUpdateReply> {
  return db.transaction(async (tx) => {
    // Lock order (inventory/stock.ts): checkouts, bulk orders, order lines, products, variants.
    await releaseShopperHolds(tx, userId);
    const [found] = await tx
      .select({ bulkOrderId: orders.bulkOrderId })
      .from(orders)
      .where(and(eq(orders.id, id), eq(orders.userId, userId)));
    if (!found) throw new NotFound("Order Not Found");
    if (found.bulkOrderId !== null) {
      const [bulk] = await tx
        .select({ status: bulkOrders.status, flag: bulkOrders.flag })
        .from(bulkOrders)
        .where(eq(bulkOrders.id, found.bulkOrderId))
        .for("update");
      if (bulk?.status !== "pending" || bulk.flag !== null)
        throw new InvalidInput("status", "only a line waiting to be paid can go back to the cart");
    }
    const [line] = await tx
      .select({ ...columns, bulkOrderId: orders.bulkOrderId, flag: orders.flag })
      .from(orders)
      .where(and(eq(orders.id, id), eq(orders.userId, userId)))
      .for("update");
    // A line flagged for money it took waits for the owner's refund: it is not the shopper's to move.
    if (!line || line.status !== "pending" || line.flag !== null || line.bulkOrderId !== found.bulkOrderId)
      throw new InvalidInput("status", "only a line waiting to be paid can go back to the cart");
    const [cartLine] = await tx
      .select(columns)
      .from(orders)
      .where(
        and(eq(orders.userId, userId), eq(orders.variantId, line.variantId), eq(orders.status, "inCart")),
      )
      .for("update");
    const stock = sellable((await lockVariants(tx, [line.variantId])).get(line.variantId));
    const wanted = line.amount + (cartLine?.amount ?? 0);
    // Capped at what is left; a sold-out product still comes back as one unit, for the shopper to remove.
    const amount = Math.max(1, Math.min(wanted, stock));
    const now = new Date();

    let moved;
    if (cartLine) {
      await tx.delete(orders).where(eq(orders.id, line.id));
      [moved] = await tx
        .update(orders)
        .set({ amount, updatedAt: now })
        .where(eq(orders.id, cartLine.id))
        .returning(columns);
    } else {
      [moved] = await tx
        .update(orders)
        .set({ ...NOT_A_PURCHASE, amount, updatedAt: now })
        .where(eq(orders.id, line.id))
        .returning(columns);
    }

    if (line.bulkOrderId !== null) {
      // The bulk order keeps its other lines and sums; left with none, it is gone.
      const left = await tx
        .select({ lineTotalCents: orders.lineTotalCents, shippingCents: orders.shippingCostCents })
        .from(orders)
        .where(eq(orders.bulkOrderId, line.bulkOrderId));
      if (left.length === 0) await tx.delete(bulkOrders).where(eq(bulkOrders.id, line.bulkOrderId));
      else {
        const sums = checkoutTotals(
          left.map((rest) => ({
            lineTotalCents: rest.lineTotalCents ?? 0,
            shippingCents: rest.shippingCents ?? 0,
          })),
        );
        await tx
          .update(bulkOrders)
          .set({
            combinedPriceCents: sums.productsCents,
            combinedShippingCostCents: sums.shippingCents,
            updatedAt: now,
          })
          .where(eq(bulkOrders.id, line.bulkOrderId));
      }
    }
    return {
      msg: amount < wanted ? `Order moved to the cart: only ${stock} left` : "Order moved to the cart",
      removed: false,
      order: moved!,
    };
  });
}

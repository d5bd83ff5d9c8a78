import { numberOf } from "@voltio/domain/order-status";
import { and, asc, eq, inArray } from "drizzle-orm";
import { checkoutTotals } from "@voltio/domain/checkout";
import { toDollars } from "@voltio/domain/money";
import type { BulkOrderInput, BulkOrderReply, OrderStatus } from "@voltio/domain/orders";
import type { Db } from "../../db/client";
import { bulkOrders, orders } from "../../db/schema";
import { InvalidInput, NotFound } from "../../errors";
import { productsByIds } from "../catalog/service";
import { lockVariants, sellable, tooMany } from "../inventory/stock";
import { lineColumns, selectPricedLines, snapshotOf, withProducts, type PricingContext } from "./service";

/** A shopper's bulk orders (docs/product-rules.md 'Buy All'): several cart lines bought as one purchase. */

/**
 * POST /order/bulk: the caller's cart lines become one pending purchase, each with its price snapshot. One
 * line that isn't the caller's cart line refuses the whole call, and nothing changes.
 */
export async function createBulkOrder(
  db: Db,
  userId: number,
  input: BulkOrderInput,
  pricing: PricingContext,
): Promise<BulkOrderReply> {
  const bulkId = await db.transaction(async (tx) => {
    const owned = await tx
      .select({ productId: orders.productId, variantId: orders.variantId })
      .from(orders)
      .where(and(inArray(orders.id, input.orderIds), eq(orders.userId, userId)));
    if (owned.length !== input.orderIds.length) throw new NotFound("Order Not Found");
    const productIds = [...new Set(owned.map((line) => line.productId))];
    const stocks = await lockVariants(
      tx,
      owned.map((line) => line.variantId),
    );
    const lines = await tx
      .select(lineColumns)
      .from(orders)
      .where(and(inArray(orders.id, input.orderIds), eq(orders.userId, userId)))
      .for("update");
    if (lines.length !== input.orderIds.length) throw new NotFound("Order Not Found");
    if (lines.some((line) => line.status !== "inCart")) {
      throw new InvalidInput("orderIds", "must all be cart lines");
    }
    for (const line of lines) {
      const stock = sellable(stocks.get(line.variantId));
      if (line.amount > stock) throw tooMany(stock);
    }
    // What will be charged is read in the transaction, sales included: never through a process's cache.
    const { products: found, globalSales } = await productsByIds(tx, productIds);
    const productById = new Map(found.map((product) => [product.id, product]));
    const snapshots = lines.map((line) => ({
      line,
      snapshot: snapshotOf(
        productById.get(line.productId)!,
        line.variantId,
        globalSales,
        line.amount,
        pricing.weekday,
      ),
    }));
    const now = new Date();
    // What the checkout charges, by the one money rule (ADR 0015): every line's shipping, added up.
    const sums = checkoutTotals(
      snapshots.map(({ snapshot }) => ({
        lineTotalCents: snapshot.lineTotalCents,
        shippingCents: snapshot.shippingCostCents,
      })),
    );
    const [bulk] = await tx
      .insert(bulkOrders)
      .values({
        userId,
        status: "pending",
        combinedPriceCents: sums.productsCents,
        combinedShippingCostCents: sums.shippingCents,
        serverPurchaseDate: now,
        localPurchaseDate: input.date ?? null,
      })
      .returning({ id: bulkOrders.id });
    for (const { line, snapshot } of snapshots) {
      await tx
        .update(orders)
        .set({
          ...snapshot,
          status: "pending",
          bulkOrderId: bulk!.id,
          serverPurchaseDate: now,
          localPurchaseDate: input.date ?? null,
          updatedAt: now,
        })
        .where(eq(orders.id, line.id));
    }
    return bulk!.id;
  });
  const [created] = await listBulkOrders(db, userId, { ids: [bulkId] }, pricing);
  return created!;
}

/** GET /order/bulk?status=…: the caller's bulk orders with their lines. */
export async function listBulkOrders(
  db: Db,
  userId: number,
  filter: { statuses?: OrderStatus[]; ids?: number[] },
  pricing: PricingContext,
): Promise<BulkOrderReply[]> {
  const bulks = await db
    .select({
      id: bulkOrders.id,
      status: bulkOrders.status,
      combinedPriceCents: bulkOrders.combinedPriceCents,
      combinedShippingCostCents: bulkOrders.combinedShippingCostCents,
      localPurchaseDate: bulkOrders.localPurchaseDate,
      checkoutId: bulkOrders.checkoutId,
    })
    .from(bulkOrders)
    .where(
      and(
        eq(bulkOrders.userId, userId),
        filter.statuses ? inArray(bulkOrders.status, filter.statuses) : undefined,
        filter.ids ? inArray(bulkOrders.id, filter.ids) : undefined,
      ),
    )
    .orderBy(asc(bulkOrders.id));
  if (bulks.length === 0) return [];
  const lines = await selectPricedLines(db)
    .where(
      inArray(
        orders.bulkOrderId,
        bulks.map((bulk) => bulk.id),
      ),
    )
    .orderBy(asc(orders.id));
  return Promise.all(
    bulks.map(async (bulk) => ({
      id: bulk.id,
      status: bulk.status,
      number: numberOf(bulk.checkoutId),
      combinedPrice: toDollars(bulk.combinedPriceCents),
      combinedShippingCost: toDollars(bulk.combinedShippingCostCents),
      localPurchaseDate: bulk.localPurchaseDate,
      products: await withProducts(
        db,
        lines.filter((line) => line.bulkOrderId === bulk.id),
        pricing,
      ),
    })),
  );
}

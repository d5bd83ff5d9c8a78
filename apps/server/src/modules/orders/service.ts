import { numberOf } from "@voltio/domain/order-status";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { discountedUnits, type SaleTerms } from "@voltio/domain/discount";
import { toCents, toDollars } from "@voltio/domain/money";
import type {
  BulkOrderInput,
  BulkOrderReply,
  OrderAdd,
  OrderLine,
  OrderStatus,
  OrderUpdate,
  OrderUpdateReply,
  OrderedProduct,
} from "@voltio/domain/orders";
import { linePriceCents, priceToday } from "@voltio/domain/pricing";
import type { Weekday } from "@voltio/domain/weekday";
import type { Db } from "../../db/client";
import { bulkOrders, orders } from "../../db/schema";
import { InvalidInput, NotAllowed, NotFound } from "../../errors";
import type { TtlCache } from "../catalog/ttl-cache";
import type { CatalogReference } from "../catalog/reference";
import { productsByIds } from "../catalog/service";
import { lockStock, releaseShopperHolds, sellable, tooMany } from "../inventory/stock";

/**
 * A shopper's order lines (SPEC.md §4, §7 Orders; DESIGN.md §4–5). Every write that checks a line against
 * its product's stock runs in one transaction that first locks the product's row: adds, deltas and moves of
 * one product take turns, so two of them can't both pass the stock check.
 */

export interface PricingContext {
  reference?: TtlCache<CatalogReference>;
  weekday: Weekday;
}

/** The columns of a line as the order routes answer it. */
export const lineColumns = {
  id: orders.id,
  status: orders.status,
  amount: orders.amount,
  productId: orders.productId,
};

/** The product's row, locked until the transaction ends; a retired product counts as out of stock. */
async function lockProduct(tx: Db, productId: number) {
  const locked = (await lockStock(tx, [productId])).get(productId);
  return locked ? { stock: sellable(locked), retired: locked.retired } : null;
}

/**
 * POST /order: adds to the caller's line of that product and status; `pending` is a purchase of its own, a new
 * line priced as of today.
 */
export async function addToList(
  db: Db,
  userId: number,
  input: OrderAdd,
  pricing: PricingContext,
): Promise<OrderLine> {
  return db.transaction(async (tx) => {
    const product = await lockProduct(tx, input.productId);
    if (!product || product.retired) throw new NotFound("Product Not Found");
    if (product.stock <= 0) throw tooMany(0);
    if (input.status === "pending") {
      if (input.amount > product.stock) throw tooMany(product.stock);
      const [created] = await tx
        .insert(orders)
        .values({
          userId,
          productId: input.productId,
          amount: input.amount,
          ...(await pendingValues(tx, input.productId, input.amount, input.date, pricing)),
        })
        .returning(lineColumns);
      return created!;
    }
    const [line] = await tx
      .select(lineColumns)
      .from(orders)
      .where(
        and(
          eq(orders.userId, userId),
          eq(orders.productId, input.productId),
          eq(orders.status, input.status),
        ),
      );
    // A wishlist is a set of products: adding one twice keeps one line of one.
    const amount = input.status === "inWishList" ? 1 : (line?.amount ?? 0) + input.amount;
    if (input.status === "inCart" && amount > product.stock) throw tooMany(product.stock);
    if (line) {
      const [updated] = await tx
        .update(orders)
        .set({ amount, updatedAt: new Date() })
        .where(eq(orders.id, line.id))
        .returning(lineColumns);
      return updated!;
    }
    const [created] = await tx
      .insert(orders)
      .values({ userId, productId: input.productId, status: input.status, amount })
      .returning(lineColumns);
    return created!;
  });
}

/** A line becoming a purchase: pending, with its price snapshot and the purchase dates. */
async function pendingValues(
  tx: Db,
  productId: number,
  amount: number,
  localDate: string | undefined,
  pricing: PricingContext,
) {
  const now = new Date();
  return {
    // What will be charged is read in the transaction, sales included: never through a process's cache.
    ...(await priceSnapshot(tx, productId, amount, { ...pricing, reference: undefined })),
    status: "pending" as const,
    localPurchaseDate: localDate ?? null,
    serverPurchaseDate: now,
    updatedAt: now,
  };
}

/** The caller's line, or NotFound: another user's line answers as a missing one. */
async function ownLine(tx: Db, userId: number, id: number, lock = false) {
  const query = tx
    .select({ ...lineColumns, bulkOrderId: orders.bulkOrderId })
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.userId, userId)));
  const [line] = lock ? await query.for("update") : await query;
  if (!line) throw new NotFound("Order Not Found");
  return line;
}

/** PUT /order/:id: a cart amount delta, wishlist → cart, or cart → pending with the price snapshot. */
export async function updateOrder(
  db: Db,
  userId: number,
  id: number,
  change: OrderUpdate,
  pricing: PricingContext,
): Promise<OrderUpdateReply> {
  const { productId } = await ownLine(db, userId, id);
  return db.transaction(async (tx) => {
    const product = await lockProduct(tx, productId);
    const line = await ownLine(tx, userId, id, true);
    const stock = product?.stock ?? 0;

    if ("amount" in change) {
      if (line.status !== "inCart") {
        throw new InvalidInput("amount", "only a cart line's amount can change");
      }
      const amount = line.amount + change.amount;
      if (amount < 1) {
        await tx.delete(orders).where(eq(orders.id, line.id));
        return { msg: "Order removed", removed: true, order: null };
      }
      if (change.amount > 0 && amount > stock) throw tooMany(stock);
      const [updated] = await tx
        .update(orders)
        .set({ amount, updatedAt: new Date() })
        .where(eq(orders.id, line.id))
        .returning(lineColumns);
      return { msg: "Order updated", removed: false, order: updated! };
    }

    const target = change.status;
    if (target !== "inCart" && target !== "pending") {
      throw new NotAllowed("A shopper can only move lines between inWishList, inCart and pending");
    }
    if (target === "inCart") {
      if (line.status !== "inWishList")
        throw new InvalidInput("status", `can't move a ${line.status} line to the cart`);
      if (stock <= 0) throw tooMany(0);
      const [cartLine] = await tx
        .select(lineColumns)
        .from(orders)
        .where(and(eq(orders.userId, userId), eq(orders.productId, productId), eq(orders.status, "inCart")))
        .for("update");
      await tx.delete(orders).where(eq(orders.id, line.id));
      if (cartLine) {
        // Merged into the cart line, capped at the stock: the wishlist line's unit joins it if there's room.
        const [merged] = await tx
          .update(orders)
          .set({ amount: Math.min(cartLine.amount + 1, stock), updatedAt: new Date() })
          .where(eq(orders.id, cartLine.id))
          .returning(lineColumns);
        return { msg: "Order moved to the cart", removed: false, order: merged! };
      }
      const [created] = await tx
        .insert(orders)
        .values({ userId, productId, status: "inCart", amount: 1 })
        .returning(lineColumns);
      return { msg: "Order moved to the cart", removed: false, order: created! };
    }

    // 'Buy' on a wishlist card buys one unit; 'Buy All' buys the cart line as it is.
    if (line.status !== "inCart" && line.status !== "inWishList")
      throw new InvalidInput("status", `can't move a ${line.status} line to pending`);
    const amount = line.status === "inWishList" ? 1 : line.amount;
    if (amount > stock) throw tooMany(stock);
    const [pending] = await tx
      .update(orders)
      .set({ amount, ...(await pendingValues(tx, productId, amount, change.date, pricing)) })
      .where(eq(orders.id, line.id))
      .returning(lineColumns);
    return { msg: "Order pending", removed: false, order: pending! };
  });
}

/** What a line costs today, as a pending line keeps it. */
export async function priceSnapshot(db: Db, productId: number, amount: number, pricing: PricingContext) {
  const {
    products: [product],
    globalSales,
  } = await productsByIds(db, [productId], pricing.reference);
  if (!product) throw new NotFound("Product Not Found");
  return snapshotOf(product, globalSales, amount, pricing.weekday);
}

function snapshotOf(
  product: { price: number; shippingCost: number; sales: OrderedProduct["sales"] },
  globalSales: SaleTerms[],
  amount: number,
  weekday: Weekday,
) {
  const price = priceToday(product, globalSales, weekday);
  return {
    unitPriceCents: price.unitCents,
    lineTotalCents: linePriceCents(price, amount),
    shippingCostCents: toCents(product.shippingCost),
    salePercentage: price.sale?.percentage ?? null,
    discountedUnits: price.sale && price.sale.productAmount > 0 ? discountedUnits(amount, price.sale) : 0,
  };
}

/** DELETE /order/:id: the caller's cart, wishlist or pending line (not one gathered in a bulk order). */
export async function deleteOrder(db: Db, userId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const target = and(eq(orders.id, id), eq(orders.userId, userId));
    const [line] = await tx.select({ status: orders.status }).from(orders).where(target);
    // A pending line leaving: the checkout that held its units holds nothing any more.
    if (line?.status === "pending") await releaseShopperHolds(tx, userId);
    const deleted = await tx
      .delete(orders)
      .where(
        and(target, inArray(orders.status, ["inCart", "inWishList", "pending"]), isNull(orders.bulkOrderId)),
      )
      .returning({ id: orders.id });
    if (deleted.length === 0) throw new NotFound("Order Not Found");
  });
}

/**
 * GET /order?status=…: the caller's products with those lines, each line priced by the server: today's price
 * for cart and wishlist lines, the snapshot for lines that were already bought. Lines of bulk orders are
 * listed too, with their bulkOrderId, as SPEC's client reads them (its checkout after "Buy All" and its
 * Purchases list them beside single purchases).
 */
export async function listOrders(
  db: Db,
  userId: number,
  statuses: OrderStatus[],
  pricing: PricingContext,
): Promise<OrderedProduct[]> {
  const lines = await db
    .select(pricedLineColumns)
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, statuses)))
    .orderBy(asc(orders.id));
  return withProducts(db, lines, pricing);
}

const pricedLineColumns = {
  ...lineColumns,
  bulkOrderId: orders.bulkOrderId,
  checkoutId: orders.checkoutId,
  localPurchaseDate: orders.localPurchaseDate,
  unitPriceCents: orders.unitPriceCents,
  lineTotalCents: orders.lineTotalCents,
  shippingCostCents: orders.shippingCostCents,
  salePercentage: orders.salePercentage,
  discountedUnits: orders.discountedUnits,
};
type PricedLine = Awaited<ReturnType<typeof selectPricedLines>>[number];
const selectPricedLines = (db: Db) => db.select(pricedLineColumns).from(orders);

/** Lines grouped under their products, each priced: its snapshot if it has one, otherwise today's price. */
async function withProducts(db: Db, lines: PricedLine[], pricing: PricingContext): Promise<OrderedProduct[]> {
  if (lines.length === 0) return [];
  const productIds = [...new Set(lines.map((line) => line.productId))];
  const { products: found, globalSales } = await productsByIds(db, productIds, pricing.reference);
  return found.map((product) => ({
    ...product,
    orders: lines
      .filter((line) => line.productId === product.id)
      .map((line) => {
        const price =
          line.unitPriceCents !== null && line.lineTotalCents !== null && line.shippingCostCents !== null
            ? {
                unitPriceCents: line.unitPriceCents,
                lineTotalCents: line.lineTotalCents,
                shippingCostCents: line.shippingCostCents,
                salePercentage: line.salePercentage,
                discountedUnits: line.discountedUnits ?? 0,
              }
            : snapshotOf(product, globalSales, line.amount, pricing.weekday);
        return {
          id: line.id,
          amount: line.amount,
          status: line.status,
          bulkOrderId: line.bulkOrderId,
          number: numberOf(line.checkoutId),
          localPurchaseDate: line.localPurchaseDate,
          unitPrice: toDollars(price.unitPriceCents),
          lineTotal: toDollars(price.lineTotalCents),
          shipping: toDollars(price.shippingCostCents),
          salePercentage: price.salePercentage,
          discountedUnits: price.discountedUnits,
        };
      }),
  }));
}

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
      .select({ productId: orders.productId })
      .from(orders)
      .where(and(inArray(orders.id, input.orderIds), eq(orders.userId, userId)));
    if (owned.length !== input.orderIds.length) throw new NotFound("Order Not Found");
    const productIds = [...new Set(owned.map((line) => line.productId))];
    const stocks = await lockStock(tx, productIds);
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
      const stock = sellable(stocks.get(line.productId));
      if (line.amount > stock) throw tooMany(stock);
    }
    // What will be charged is read in the transaction, sales included: never through a process's cache.
    const { products: found, globalSales } = await productsByIds(tx, productIds);
    const productById = new Map(found.map((product) => [product.id, product]));
    const snapshots = lines.map((line) => ({
      line,
      snapshot: snapshotOf(productById.get(line.productId)!, globalSales, line.amount, pricing.weekday),
    }));
    const now = new Date();
    const [bulk] = await tx
      .insert(bulkOrders)
      .values({
        userId,
        status: "pending",
        combinedPriceCents: snapshots.reduce((sum, { snapshot }) => sum + snapshot.lineTotalCents, 0),
        // What the checkout charges: every line's shipping (SPEC.md §2 Checkout, §7 pay's shipping item).
        combinedShippingCostCents: snapshots.reduce(
          (sum, { snapshot }) => sum + snapshot.shippingCostCents,
          0,
        ),
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

import { numberOf } from "@voltio/domain/order-status";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { discountedUnits, type SaleTerms } from "@voltio/domain/discount";
import { toCents, toDollars } from "@voltio/domain/money";
import type {
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
import { orders } from "../../db/schema";
import { chooseVariant, lineVariants, sellingTerms } from "../inventory/variants";
import { InvalidInput, NotAllowed, NotFound } from "../../errors";
import type { TtlCache } from "../catalog/ttl-cache";
import type { CatalogReference } from "../catalog/reference";
import { productsByIds } from "../catalog/service";
import { lockVariants, releaseShopperHolds, sellable, tooMany } from "../inventory/stock";
import { backToCart } from "./back-to-cart";

/**
 * A shopper's order lines (docs/product-rules.md §8, §10.6 Orders; §10–11). A line sells a variant (ADR 0023).
 * Every write that checks a line against its variant's stock runs in one transaction that first locks the
 * product's and the variant's rows: adds, deltas and moves of one variant take turns, so two of them can't
 * both pass the stock check.
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
  variantId: orders.variantId,
};

/** The variant's rows, locked until the transaction ends; a retired one counts as out of stock. */
async function lockVariant(tx: Db, variantId: number) {
  const locked = (await lockVariants(tx, [variantId])).get(variantId);
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
    const { productId } = input;
    const variantId = await chooseVariant(tx, productId, input.variantId);
    const product = await lockVariant(tx, variantId);
    if (!product || product.retired) throw new NotFound("Product Not Found");
    if (product.stock <= 0) throw tooMany(0);
    if (input.status === "pending") {
      if (input.amount > product.stock) throw tooMany(product.stock);
      const [created] = await tx
        .insert(orders)
        .values({
          userId,
          productId,
          variantId,
          amount: input.amount,
          ...(await pendingValues(tx, { productId, variantId }, input.amount, input.date, pricing)),
        })
        .returning(lineColumns);
      return created!;
    }
    const [line] = await tx
      .select(lineColumns)
      .from(orders)
      .where(
        and(eq(orders.userId, userId), eq(orders.variantId, variantId), eq(orders.status, input.status)),
      );
    // A wishlist is a set of variants: adding one twice keeps one line of one.
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
      .values({ userId, productId, variantId, status: input.status, amount })
      .returning(lineColumns);
    return created!;
  });
}

/** A line becoming a purchase: pending, with its price snapshot and the purchase dates. */
async function pendingValues(
  tx: Db,
  sold: SoldVariant,
  amount: number,
  localDate: string | undefined,
  pricing: PricingContext,
) {
  const now = new Date();
  return {
    // What will be charged is read in the transaction, sales included: never through a process's cache.
    ...(await priceSnapshot(tx, sold, amount, { ...pricing, reference: undefined })),
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

/**
 * PUT /order/:id: a cart amount delta, wishlist → cart, pending → cart (back-to-cart.ts), or cart → pending
 * with the price snapshot.
 */
export async function updateOrder(
  db: Db,
  userId: number,
  id: number,
  change: OrderUpdate,
  pricing: PricingContext,
): Promise<OrderUpdateReply> {
  const { productId, variantId, status } = await ownLine(db, userId, id);
  // Taken back from checkout: its own transaction, which starts with the checkout's holds.
  if ("status" in change && change.status === "inCart" && status === "pending")
    return backToCart(db, userId, id);
  return db.transaction(async (tx) => {
    const product = await lockVariant(tx, variantId);
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
        .where(and(eq(orders.userId, userId), eq(orders.variantId, variantId), eq(orders.status, "inCart")))
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
        .values({ userId, productId, variantId, status: "inCart", amount: 1 })
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
      .set({ amount, ...(await pendingValues(tx, { productId, variantId }, amount, change.date, pricing)) })
      .where(eq(orders.id, line.id))
      .returning(lineColumns);
    return { msg: "Order pending", removed: false, order: pending! };
  });
}

/** The product and the variant of it a line sells. */
export interface SoldVariant {
  productId: number;
  variantId: number;
}

/** What a line costs today, as a pending line keeps it. */
export async function priceSnapshot(db: Db, sold: SoldVariant, amount: number, pricing: PricingContext) {
  const {
    products: [product],
    globalSales,
  } = await productsByIds(db, [sold.productId], pricing.reference);
  if (!product) throw new NotFound("Product Not Found");
  return snapshotOf(product, sold.variantId, globalSales, amount, pricing.weekday);
}

/** A line's prices today: its variant's price, and the sales running today unless the variant is left out of them. */
export function snapshotOf(
  product: Pick<OrderedProduct, "price" | "shippingCost" | "sales" | "variants">,
  variantId: number,
  globalSales: SaleTerms[],
  amount: number,
  weekday: Weekday,
) {
  const terms = sellingTerms(product, variantId);
  const price = priceToday(terms, globalSales, terms.saleEligible ? weekday : undefined);
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
export const selectPricedLines = (db: Db) => db.select(pricedLineColumns).from(orders);

/** Lines grouped under their products, each priced: its snapshot if it has one, otherwise today's price. */
export async function withProducts(
  db: Db,
  lines: PricedLine[],
  pricing: PricingContext,
): Promise<OrderedProduct[]> {
  if (lines.length === 0) return [];
  const productIds = [...new Set(lines.map((line) => line.productId))];
  const { products: found, globalSales } = await productsByIds(db, productIds, pricing.reference);
  const variants = await lineVariants(
    db,
    lines.map((line) => line.variantId),
  );
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
            : snapshotOf(product, line.variantId, globalSales, line.amount, pricing.weekday);
        return {
          id: line.id,
          variantId: line.variantId,
          variant: variants.get(line.variantId)!,
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

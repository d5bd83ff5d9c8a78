import { and, asc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { checkouts, products, productVariants, stockHolds } from "../../db/schema";
import { Conflict } from "../../errors";

/**
 * Stock and its holds (docs/product-rules.md §11), the one place that takes, gives back and holds units.
 *
 * What is sold is a variant (ADR 0023): its `stock` column is what is on the shelf, unsold, and a product's
 * `stock` is the sum of its live variants', kept by the database (migration 0026). A checkout holds units while its buyer pays
 * (stock_holds rows with an expiry): what anybody else can see or take is the stock less the holds that
 * have not expired. An expired hold needs nothing to run: it simply stops counting.
 *
 * Lock order, the same in every transaction that takes more than one of these (so two never wait on each
 * other in a circle): checkouts, then bulk orders, then order lines, then products in id order, then their
 * variants in id order.
 */

/** SQL for what other shoppers can take of `products p` now: the shelf less the active holds. */
export const AVAILABLE_STOCK_SQL = `(p.stock - coalesce((select sum(h.units) from stock_holds h
  where h.product_id = p.id and h.expires_at > now()), 0))::int`;

/** SQL for what other shoppers can take of `product_variants v` now. */
export const VARIANT_AVAILABLE_STOCK_SQL = `(v.stock - coalesce((select sum(h.units) from stock_holds h
  where h.variant_id = v.id and h.expires_at > now()), 0))::int`;

/**
 * When the first hold ends that ends after `after` (or after now when null), and the database's now: epoch
 * milliseconds by the database's clock, which is the one `AVAILABLE_STOCK_SQL` compares expiries with.
 */
export async function nextHoldExpiry(
  db: Db,
  after: number | null,
): Promise<{ now: number; next: number | null }> {
  const since = after === null ? sql`now()` : sql`to_timestamp(${after / 1000}::float8)`;
  const result = await db.execute(
    sql`select extract(epoch from now()) * 1000 as now, extract(epoch from min(expires_at)) * 1000 as next
        from stock_holds where expires_at > ${since}`,
  );
  const [row] = (result as unknown as { rows: { now: string | number; next: string | number | null }[] })
    .rows;
  return { now: Number(row!.now), next: row!.next === null ? null : Number(row!.next) };
}

export interface LockedStock {
  /** What the caller may take: the shelf less other checkouts' active holds. */
  stock: number;
  /** On the shelf, unsold, holds included. */
  onShelf: number;
  retired: boolean;
}

/** Units per variant, summed over lines: what a set of lines takes, holds or gives back. */
export function unitsPerVariant(lines: Iterable<{ variantId: number; amount: number }>): Map<number, number> {
  const units = new Map<number, number>();
  for (const line of lines) units.set(line.variantId, (units.get(line.variantId) ?? 0) + line.amount);
  return units;
}

/**
 * The products' rows, locked until the transaction ends, always in product id order, with what each can
 * give: the shelf less the active holds of every checkout but `ownCheckoutId`'s. Unknown ids are absent.
 */
export async function lockStock(
  tx: Db,
  productIds: Iterable<number>,
  ownCheckoutId?: number,
): Promise<Map<number, LockedStock>> {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: products.id, stock: products.stock, deletedAt: products.deletedAt })
    .from(products)
    .where(inArray(products.id, ids))
    .orderBy(asc(products.id))
    .for("update");
  const held = await tx
    .select({ productId: stockHolds.productId, units: sql<number>`sum(${stockHolds.units})::int` })
    .from(stockHolds)
    .where(
      and(
        inArray(stockHolds.productId, ids),
        gt(stockHolds.expiresAt, sql`now()`),
        ownCheckoutId === undefined ? undefined : ne(stockHolds.checkoutId, ownCheckoutId),
      ),
    )
    .groupBy(stockHolds.productId);
  const heldOf = new Map(held.map((row) => [row.productId, Number(row.units)]));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        stock: Math.max(0, row.stock - (heldOf.get(row.id) ?? 0)),
        onShelf: row.stock,
        retired: row.deletedAt !== null,
      },
    ]),
  );
}

export interface LockedVariant extends LockedStock {
  productId: number;
}

/**
 * The variants' rows, locked until the transaction ends, after their products' rows (in product id order,
 * then variant id order), with what each can give: the shelf less the active holds of every checkout but
 * `ownCheckoutId`'s. A variant of a retired product, or retired itself, counts as retired. Unknown ids are
 * absent.
 */
export async function lockVariants(
  tx: Db,
  variantIds: Iterable<number>,
  ownCheckoutId?: number,
): Promise<Map<number, LockedVariant>> {
  const ids = [...new Set(variantIds)].sort((a, b) => a - b);
  if (ids.length === 0) return new Map();
  const productRows = await tx
    .select({ id: products.id, deletedAt: products.deletedAt })
    .from(products)
    .where(
      inArray(
        products.id,
        tx
          .select({ id: productVariants.productId })
          .from(productVariants)
          .where(inArray(productVariants.id, ids)),
      ),
    )
    .orderBy(asc(products.id))
    .for("update");
  const productRetired = new Map(productRows.map((row) => [row.id, row.deletedAt !== null]));
  const rows = await tx
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      stock: productVariants.stock,
      retiredAt: productVariants.retiredAt,
    })
    .from(productVariants)
    .where(inArray(productVariants.id, ids))
    .orderBy(asc(productVariants.id))
    .for("update");
  const held = await tx
    .select({ variantId: stockHolds.variantId, units: sql<number>`sum(${stockHolds.units})::int` })
    .from(stockHolds)
    .where(
      and(
        inArray(stockHolds.variantId, ids),
        gt(stockHolds.expiresAt, sql`now()`),
        ownCheckoutId === undefined ? undefined : ne(stockHolds.checkoutId, ownCheckoutId),
      ),
    )
    .groupBy(stockHolds.variantId);
  const heldOf = new Map(held.map((row) => [row.variantId, Number(row.units)]));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        productId: row.productId,
        stock: Math.max(0, row.stock - (heldOf.get(row.id) ?? 0)),
        onShelf: row.stock,
        retired: row.retiredAt !== null || (productRetired.get(row.productId) ?? true),
      },
    ]),
  );
}

/** What a shopper may still take: nothing of a retired or unknown product. */
export const sellable = (locked: LockedStock | undefined) => (!locked || locked.retired ? 0 : locked.stock);

/** The refusal when fewer units are left than asked for (SPEC's "Only N left"). */
export const tooMany = (stock: number, line?: { productId: number; variantId: number }) =>
  new Conflict(stock > 0 ? `Only ${stock} left` : "Out of stock", { stock, ...line });

/**
 * Takes units off the variants' shelves (a sale), after lockVariants checked them; the product_variants_stock
 * check constraint would refuse a negative stock anyway. The products' stock follows (migration 0026).
 */
export async function takeStock(tx: Db, units: Map<number, number>) {
  await moveVariantStock(tx, units, -1);
}

/** Puts units back on the variants' shelves (a cancelled paid order). */
export async function giveBackStock(tx: Db, units: Map<number, number>) {
  await moveVariantStock(tx, units, 1);
}

async function moveVariantStock(tx: Db, units: Map<number, number>, sign: 1 | -1) {
  for (const [variantId, amount] of [...units].sort(([a], [b]) => a - b)) {
    await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${sign * amount}` })
      .where(eq(productVariants.id, variantId));
  }
}

/**
 * Holds a checkout's units (per variant) until `expiresAt`, or refuses with 409 `{error: "Only N left",
 * productId, variantId, stock}` naming the first variant short (retired ones count as gone). Locks the
 * products and variants.
 */
export async function holdStock(tx: Db, checkoutId: number, units: Map<number, number>, expiresAt: Date) {
  const locked = await lockVariants(tx, units.keys(), checkoutId);
  for (const [variantId, amount] of [...units].sort(([a], [b]) => a - b)) {
    const variant = locked.get(variantId);
    const stock = sellable(variant);
    if (amount > stock) throw tooMany(stock, variant && { productId: variant.productId, variantId });
  }
  await tx.delete(stockHolds).where(eq(stockHolds.checkoutId, checkoutId));
  await tx.insert(stockHolds).values(
    [...units].map(([variantId, amount]) => ({
      checkoutId,
      productId: locked.get(variantId)!.productId,
      variantId,
      units: amount,
      expiresAt,
    })),
  );
}

/** Ends a checkout's holds (paid, replaced, declined, its orders cancelled or removed). */
export async function releaseHolds(tx: Db, checkoutId: number) {
  await tx.delete(stockHolds).where(eq(stockHolds.checkoutId, checkoutId));
}

/**
 * A shopper's pending orders shrank (a line removed, an order cancelled): their open checkout stops holding
 * at once, and the next Pay makes a new one. Call it before locking the lines (checkouts come first).
 */
export async function releaseShopperHolds(tx: Db, userId: number) {
  const open = await tx
    .update(checkouts)
    .set({ expiresAt: sql`least(${checkouts.expiresAt}, now())` })
    .where(and(eq(checkouts.userId, userId), eq(checkouts.status, "open")))
    .returning({ id: checkouts.id });
  for (const checkout of open) await releaseHolds(tx, checkout.id);
}

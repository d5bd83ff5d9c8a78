import { and, asc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { checkouts, products, stockHolds } from "../../db/schema";
import { Conflict } from "../../errors";

/**
 * Stock and its holds (docs/product-rules.md §11), the one place that takes, gives back and holds units.
 *
 * A product's `stock` column is what is on the shelf, unsold. A checkout holds units while its buyer pays
 * (stock_holds rows with an expiry): what anybody else can see or take is the stock less the holds that
 * have not expired. An expired hold needs nothing to run: it simply stops counting.
 *
 * Lock order, the same in every transaction that takes more than one of these (so two never wait on each
 * other in a circle): checkouts, then bulk orders, then order lines, then products in id order.
 */

/** SQL for what other shoppers can take of `products p` now: the shelf less the active holds. */
export const AVAILABLE_STOCK_SQL = `(p.stock - coalesce((select sum(h.units) from stock_holds h
  where h.product_id = p.id and h.expires_at > now()), 0))::int`;

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

/** Units per product, summed over lines: what a set of lines takes, holds or gives back. */
export function unitsPerProduct(lines: Iterable<{ productId: number; amount: number }>): Map<number, number> {
  const units = new Map<number, number>();
  for (const line of lines) units.set(line.productId, (units.get(line.productId) ?? 0) + line.amount);
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

/** What a shopper may still take: nothing of a retired or unknown product. */
export const sellable = (locked: LockedStock | undefined) => (!locked || locked.retired ? 0 : locked.stock);

/** The refusal when fewer units are left than asked for (SPEC's "Only N left"). */
export const tooMany = (stock: number, productId?: number) =>
  stock > 0
    ? new Conflict(`Only ${stock} left`, { stock, ...(productId === undefined ? {} : { productId }) })
    : new Conflict("Out of stock", { stock: 0, ...(productId === undefined ? {} : { productId }) });

/**
 * Takes units off the shelf (a sale), after lockStock checked them; the products_stock check constraint
 * would refuse a negative stock anyway.
 */
export async function takeStock(tx: Db, units: Map<number, number>) {
  for (const [productId, amount] of [...units].sort(([a], [b]) => a - b)) {
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${amount}` })
      .where(eq(products.id, productId));
  }
}

/** Puts units back on the shelf (a cancelled paid order). */
export async function giveBackStock(tx: Db, units: Map<number, number>) {
  for (const [productId, amount] of [...units].sort(([a], [b]) => a - b)) {
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${amount}` })
      .where(eq(products.id, productId));
  }
}

/**
 * Holds a checkout's units until `expiresAt`, or refuses with 409 `{error: "Only N left", productId, stock}`
 * naming the first product short (retired ones count as gone). Locks the products.
 */
export async function holdStock(tx: Db, checkoutId: number, units: Map<number, number>, expiresAt: Date) {
  const locked = await lockStock(tx, units.keys(), checkoutId);
  for (const [productId, amount] of [...units].sort(([a], [b]) => a - b)) {
    const stock = sellable(locked.get(productId));
    if (amount > stock) throw tooMany(stock, productId);
  }
  await tx.delete(stockHolds).where(eq(stockHolds.checkoutId, checkoutId));
  await tx
    .insert(stockHolds)
    .values([...units].map(([productId, amount]) => ({ checkoutId, productId, units: amount, expiresAt })));
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

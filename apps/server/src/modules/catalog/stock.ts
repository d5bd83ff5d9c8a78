import { asc, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { products } from "../../db/schema";

export interface LockedStock {
  stock: number;
  retired: boolean;
}

/**
 * The products' rows, locked until the transaction ends. Every stock check (adds, bulk orders, merges,
 * payments) locks through here, always in product id order, so two transactions sharing products take turns
 * instead of waiting on each other. Unknown ids are absent from the map.
 */
export async function lockStock(tx: Db, productIds: Iterable<number>): Promise<Map<number, LockedStock>> {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: products.id, stock: products.stock, deletedAt: products.deletedAt })
    .from(products)
    .where(inArray(products.id, ids))
    .orderBy(asc(products.id))
    .for("update");
  return new Map(rows.map((row) => [row.id, { stock: row.stock, retired: row.deletedAt !== null }]));
}

/** What a shopper may still take: nothing of a retired or unknown product. */
export const sellable = (locked: LockedStock | undefined) => (!locked || locked.retired ? 0 : locked.stock);

import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { IN_STOCK } from "@voltio/domain/stock-alerts";
import type { Db } from "../../db/client";
import { productVariants, products, stockAlerts, users } from "../../db/schema";
import { Conflict, NotFound } from "../../errors";
import { queueMail } from "../../integrations/mail/outbox";
import { isDeletedAddress } from "../users/erasure";
import { VARIANT_AVAILABLE_STOCK_SQL } from "../inventory/stock";
import { chooseVariant, variantTitle } from "../inventory/variants";
import { backInStockMail } from "./mail";

/**
 * Back-in-stock requests. A shopper asks while a variant is sold out (nothing left for
 * anyone to take: the shelf less the checkouts' active holds, inventory/stock.ts); the first time it can be
 * bought again, `notifyRestocked` queues one e-mail per open request and closes it in the same transaction.
 * At most one open request per shopper and variant (the database's partial unique index). A request that
 * names no variant is for the product's default one (a product sold one way has only that).
 */

const PRODUCT_NOT_FOUND = "Product Not Found!";

/** `products p` and `product_variants v`, as VARIANT_AVAILABLE_STOCK_SQL names them. */
const p = alias(products, "p");
const v = alias(productVariants, "v");
const available = sql<number>`${sql.raw(VARIANT_AVAILABLE_STOCK_SQL)}`;

/** The request's variant: the one named, or the product's default. */
export interface AlertTarget {
  productId: number;
  variantId?: number;
}

/**
 * A live variant's units for sale, its product's and its rows share-locked until the transaction ends; 404
 * when the product is unknown or retired, or the variant retired.
 */
async function lockedAvailable(tx: Db, target: AlertTarget): Promise<{ variantId: number; stock: number }> {
  const variantId = await chooseVariant(tx, target.productId, target.variantId, PRODUCT_NOT_FOUND);
  const [row] = await tx
    .select({ available })
    .from(v)
    .innerJoin(p, eq(p.id, v.productId))
    .where(and(eq(v.id, variantId), isNull(p.deletedAt), isNull(v.retiredAt)))
    .for("share", { of: [p, v] });
  if (!row) throw new NotFound(PRODUCT_NOT_FOUND);
  return { variantId, stock: Number(row.available) };
}

const openRequest = (userId: number, variantId: number) =>
  and(eq(stockAlerts.userId, userId), eq(stockAlerts.variantId, variantId), isNull(stockAlerts.notifiedAt));

/**
 * PUT: asks to be told. Asking again keeps the one open request. A product anyone can buy now is refused
 * (409): there is nothing to wait for. The product's row is share-locked, so an admin's restock either
 * commits first (then this is refused) or waits for this request and its sweep finds it.
 */
export async function requestAlert(db: Db, userId: number, target: AlertTarget): Promise<void> {
  await db.transaction(async (tx) => {
    const { variantId, stock } = await lockedAvailable(tx, target);
    if (stock > 0) throw new Conflict(IN_STOCK, { stock });
    await tx
      .insert(stockAlerts)
      .values({ userId, productId: target.productId, variantId })
      .onConflictDoNothing();
  });
}

/** DELETE: the shopper no longer wants to be told (nothing open is fine: the outcome is the same). */
export async function cancelAlert(db: Db, userId: number, target: AlertTarget): Promise<void> {
  await db.transaction(async (tx) => {
    const { variantId } = await lockedAvailable(tx, target);
    await tx.delete(stockAlerts).where(openRequest(userId, variantId));
  });
}

/** GET: whether the caller has an open request for the variant. */
export async function hasAlert(db: Db, userId: number, target: AlertTarget): Promise<boolean> {
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, target.productId), isNull(products.deletedAt)));
  if (!product) throw new NotFound(PRODUCT_NOT_FOUND);
  const variantId = await chooseVariant(db, target.productId, target.variantId, PRODUCT_NOT_FOUND);
  const [open] = await db
    .select({ id: stockAlerts.id })
    .from(stockAlerts)
    .where(openRequest(userId, variantId));
  return open !== undefined;
}

/** Requests closed per transaction: a restock of a popular product is sent in several short ones. */
const BATCH = 200;

/**
 * The sweep: every open request whose variant can be bought now gets its e-mail queued and is closed, in
 * one transaction per batch. Requests are claimed with FOR UPDATE SKIP LOCKED, so sweeps in several
 * processes (or two in one) share the work and never send twice; the mail's dedupe key is a second guard.
 * A request of an erased account is closed without mail. Returns how many e-mails were queued.
 */
export async function notifyRestocked(db: Db, storeUrl: string): Promise<number> {
  let queued = 0;
  for (;;) {
    const { claimed, mailed } = await db.transaction(async (tx) => {
      const due = await tx
        .select({
          id: stockAlerts.id,
          productId: stockAlerts.productId,
          variantId: stockAlerts.variantId,
          title: p.title,
          productOptions: p.options,
          variantOptions: v.options,
          firstName: users.firstName,
          email: users.email,
          erased: sql<boolean>`${users.deletedAt} is not null`,
        })
        .from(stockAlerts)
        .innerJoin(v, eq(v.id, stockAlerts.variantId))
        .innerJoin(p, eq(p.id, stockAlerts.productId))
        .innerJoin(users, eq(users.id, stockAlerts.userId))
        .where(
          and(
            isNull(stockAlerts.notifiedAt),
            isNull(p.deletedAt),
            isNull(v.retiredAt),
            sql`${available} > 0`,
          ),
        )
        .orderBy(asc(stockAlerts.id))
        .limit(BATCH)
        .for("update", { of: stockAlerts, skipLocked: true });
      let mailed = 0;
      for (const alert of due) {
        // A request of an erased account ends without mail.
        if (alert.erased || isDeletedAddress(alert.email)) continue;
        const named = { ...alert, title: variantTitle(alert) };
        if ((await queueMail(tx, backInStockMail(named, storeUrl))) !== undefined) mailed++;
      }
      if (due.length > 0)
        await tx
          .update(stockAlerts)
          .set({ notifiedAt: sql`now()` })
          .where(
            inArray(
              stockAlerts.id,
              due.map((alert) => alert.id),
            ),
          );
      return { claimed: due.length, mailed };
    });
    queued += mailed;
    if (claimed < BATCH) return queued;
  }
}

import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import {
  ADMIN_ORDERS_LIST_MAX,
  type AdminOrder,
  type AdminOrderFilters,
  type AdminOrderPage,
  type AdminOrderQuery,
} from "@voltio/domain/admin-orders";
import { pageInfo } from "@voltio/domain/http";
import { toDollars } from "@voltio/domain/money";
import { PURCHASE_STATUSES, checkoutIdOf, numberOf } from "@voltio/domain/order-status";
import type { Db } from "../../db/client";
import { bulkOrders, orders, productVariants, products, users } from "../../db/schema";
import { variantTitle, variantTitleColumns } from "../inventory/variants";
import { likeLiteral } from "../../db/like";

/**
 * The back office's orders (docs/product-rules.md §1 'All Orders', §8 Admin order status): every
 * purchase of every shopper, single lines and bulk orders alike, listed, exported and moved on by an admin. Here: the list (admin-export.ts: the CSV; admin-status.ts: the moves).
 */

type Kind = "order" | "bulk";
export interface PurchaseKey {
  kind: Kind;
  id: number;
  /** The sort date as the database prints it: a JS Date would drop its microseconds and break the keyset. */
  sortKey: string;
}

/**
 * The back office's search box: the purchase's number (V-000123, v-123 or 123), or part of
 * the buyer's first name, last name, full name or e-mail, whatever its case.
 */
function searchOn(table: { userId: AnyPgColumn; checkoutId: AnyPgColumn }, search: string): SQL {
  const pattern = `%${likeLiteral(search)}%`;
  const buyers = sql`${table.userId} in (select ${users.id} from ${users} where ${or(
    ilike(users.firstName, pattern),
    ilike(users.lastName, pattern),
    ilike(users.email, pattern),
    ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
  )})`;
  const checkoutId = checkoutIdOf(search.toUpperCase().replace(/^V-?/, ""));
  return checkoutId === null ? buyers : or(eq(table.checkoutId, checkoutId), buyers)!;
}

/** The filters on one of the two tables (they share the column names). */
function filtersOn(
  table: { status: AnyPgColumn; userId: AnyPgColumn; flag: AnyPgColumn; checkoutId: AnyPgColumn },
  filters: AdminOrderFilters,
): SQL[] {
  const where: SQL[] = [];
  if (filters.search) where.push(searchOn(table, filters.search));
  if (filters.status) where.push(eq(table.status, filters.status));
  if (filters.userId) where.push(eq(table.userId, filters.userId));
  if (filters.flag) where.push(eq(table.flag, filters.flag));
  if (filters.flagged !== undefined) where.push(filters.flagged ? isNotNull(table.flag) : isNull(table.flag));
  return where;
}

/** Single purchases: lines of no bulk order that left the shopper's lists. */
const singleWhere = (filters: AdminOrderFilters) =>
  and(
    isNull(orders.bulkOrderId),
    inArray(orders.status, [...PURCHASE_STATUSES]),
    ...filtersOn(orders, filters),
  );
const bulkWhere = (filters: AdminOrderFilters) => and(...filtersOn(bulkOrders, filters));

/**
 * Both kinds in one ordering, newest first: the purchase date, else the last change, then the id (and the
 * kind, for an order and a bulk order of the same id and date). Only the keys travel; the page's details
 * are read afterwards for those rows alone.
 */
export async function purchaseKeys(
  db: Db,
  filters: AdminOrderFilters,
  page: { limit: number; offset?: number; after?: PurchaseKey },
): Promise<PurchaseKey[]> {
  const singles = db
    .select({
      kind: sql<Kind>`'order'`.as("kind"),
      id: orders.id,
      sortDate: sql`coalesce(${orders.serverPurchaseDate}, ${orders.updatedAt})`.as("sort_date"),
    })
    .from(orders)
    .where(singleWhere(filters));
  const bulks = db
    .select({
      kind: sql<Kind>`'bulk'`.as("kind"),
      id: bulkOrders.id,
      sortDate: sql`coalesce(${bulkOrders.serverPurchaseDate}, ${bulkOrders.updatedAt})`.as("sort_date"),
    })
    .from(bulkOrders)
    .where(bulkWhere(filters));
  const all = singles.unionAll(bulks).as("purchases");
  const { after } = page;
  return db
    .select({ kind: all.kind, id: all.id, sortKey: sql<string>`${all.sortDate}::text` })
    .from(all)
    .where(
      after
        ? sql`(${all.sortDate}, ${all.id}, ${all.kind}) < (${after.sortKey}::timestamptz, ${after.id}, ${after.kind}::text)`
        : undefined,
    )
    .orderBy(desc(all.sortDate), desc(all.id), desc(all.kind))
    .limit(page.limit)
    .offset(page.offset ?? 0);
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const userColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
};

/** The purchases behind these keys, with their buyer and products, in the keys' order. */
export async function describePurchases(db: Db, keys: PurchaseKey[]): Promise<AdminOrder[]> {
  const singleIds = keys.filter((key) => key.kind === "order").map((key) => key.id);
  const bulkIds = keys.filter((key) => key.kind === "bulk").map((key) => key.id);
  const [singles, bulks, bulkLines] = await Promise.all([
    singleIds.length
      ? db
          .select({ order: orders, ...variantTitleColumns, user: userColumns })
          .from(orders)
          .innerJoin(products, eq(products.id, orders.productId))
          .innerJoin(productVariants, eq(productVariants.id, orders.variantId))
          .innerJoin(users, eq(users.id, orders.userId))
          .where(inArray(orders.id, singleIds))
      : [],
    bulkIds.length
      ? db
          .select({ bulk: bulkOrders, user: userColumns })
          .from(bulkOrders)
          .innerJoin(users, eq(users.id, bulkOrders.userId))
          .where(inArray(bulkOrders.id, bulkIds))
      : [],
    bulkIds.length
      ? db
          .select({
            orderId: orders.id,
            bulkOrderId: orders.bulkOrderId,
            productId: orders.productId,
            ...variantTitleColumns,
            amount: orders.amount,
            lineTotalCents: orders.lineTotalCents,
          })
          .from(orders)
          .innerJoin(products, eq(products.id, orders.productId))
          .innerJoin(productVariants, eq(productVariants.id, orders.variantId))
          .where(inArray(orders.bulkOrderId, bulkIds))
          .orderBy(asc(orders.id))
      : [],
  ]);

  const described = new Map<string, AdminOrder>();
  for (const { order, user, ...named } of singles) {
    const title = variantTitle(named);
    const price = toDollars(order.lineTotalCents ?? 0);
    described.set(`order:${order.id}`, {
      id: order.id,
      kind: "order",
      userId: order.userId,
      user,
      status: order.status,
      number: numberOf(order.checkoutId),
      flag: order.flag,
      serverPurchaseDate: iso(order.serverPurchaseDate),
      localPurchaseDate: order.localPurchaseDate,
      updatedAt: order.updatedAt.toISOString(),
      price,
      shippingCost: toDollars(order.shippingCostCents ?? 0),
      purchaseId: order.purchaseId,
      shippingAddress: order.shippingAddress,
      title,
      orders: [
        {
          id: order.id,
          userId: order.userId,
          productId: order.productId,
          status: order.status,
          amount: order.amount,
          serverPurchaseDate: iso(order.serverPurchaseDate),
          localPurchaseDate: order.localPurchaseDate,
          purchaseId: order.purchaseId,
        },
      ],
      products: [{ orderId: order.id, productId: order.productId, title, amount: order.amount, price }],
    });
  }
  for (const { bulk, user } of bulks) {
    const price = toDollars(bulk.combinedPriceCents);
    described.set(`bulk:${bulk.id}`, {
      id: bulk.id,
      kind: "bulk",
      userId: bulk.userId,
      user,
      status: bulk.status,
      number: numberOf(bulk.checkoutId),
      flag: bulk.flag,
      serverPurchaseDate: iso(bulk.serverPurchaseDate),
      localPurchaseDate: bulk.localPurchaseDate,
      updatedAt: bulk.updatedAt.toISOString(),
      price,
      combinedPrice: price,
      shippingCost: toDollars(bulk.combinedShippingCostCents),
      purchaseId: bulk.purchaseId,
      shippingAddress: bulk.shippingAddress,
      products: bulkLines
        .filter((line) => line.bulkOrderId === bulk.id)
        .map((line) => ({
          orderId: line.orderId,
          productId: line.productId,
          title: variantTitle(line),
          amount: line.amount,
          price: toDollars(line.lineTotalCents ?? 0),
        })),
    });
  }
  // A row gone between the two reads (a shopper deleted a pending line) is left out.
  return keys.flatMap((key) => described.get(`${key.kind}:${key.id}`) ?? []);
}

/**
 * GET /order/admin/bulk: one page of every purchase, paged by the database, with the filters' total; without
 * a page, SPEC's list of the newest ADMIN_ORDERS_LIST_MAX.
 */
export async function listAdminOrders(
  db: Db,
  query: AdminOrderQuery,
): Promise<AdminOrderPage | AdminOrder[]> {
  const { page, limit, ...filters } = query;
  if (page === undefined)
    return describePurchases(
      db,
      await purchaseKeys(db, filters, { limit: ADMIN_ORDERS_LIST_MAX, offset: 0 }),
    );
  const [keys, [singles], [bulks]] = await Promise.all([
    purchaseKeys(db, filters, { limit, offset: (page - 1) * limit }),
    db.select({ total: count() }).from(orders).where(singleWhere(filters)),
    db.select({ total: count() }).from(bulkOrders).where(bulkWhere(filters)),
  ]);
  const total = (singles?.total ?? 0) + (bulks?.total ?? 0);
  return { ...pageInfo(page, limit, total), orders: await describePurchases(db, keys) };
}

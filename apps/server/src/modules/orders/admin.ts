import { Readable } from "node:stream";
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import {
  NOTIFIED_STATUSES,
  ADMIN_ORDERS_LIST_MAX,
  ORDER_CSV_COLUMNS,
  adminStatusChangeSchema,
  type AdminOrder,
  type AdminOrderFilters,
  type AdminOrderPage,
  type AdminOrderQuery,
  type AdminStatusChange,
  type OrderFlag,
} from "@voltio/domain/admin-orders";
import { pageInfo } from "@voltio/domain/http";
import { toDollars } from "@voltio/domain/money";
import { PURCHASE_STATUSES, numberOf } from "@voltio/domain/order-status";
import { isPaidStatus, type OrderStatus, type OrderUpdateReply } from "@voltio/domain/orders";
import type { Db } from "../../db/client";
import { bulkOrders, orders, products, users } from "../../db/schema";
import { Conflict, InvalidInput, NotFound } from "../../errors";
import { queueMail } from "../../integrations/mail/outbox";
import { recordChange } from "../audit/service";
import type { Caller } from "../auth/access-token";
import {
  giveBackStock,
  lockStock,
  releaseShopperHolds,
  takeStock,
  unitsPerProduct,
} from "../inventory/stock";
import { refundCancelledPurchase } from "../payments/refunds";
import { isDeletedAddress, orderStatusMail, type NotifiedStatus, type StatusMailOrder } from "./admin-mail";

/**
 * The back office's orders (SPEC.md §2 'All Orders', §4 Admin order status; issue 13 point 1): every
 * purchase of every shopper, single lines and bulk orders alike, listed, exported and moved on by an admin.
 */

type Kind = "order" | "bulk";
interface PurchaseKey {
  kind: Kind;
  id: number;
  /** The sort date as the database prints it: a JS Date would drop its microseconds and break the keyset. */
  sortKey: string;
}

type AdminOrderStatus = AdminStatusChange["status"];

/** The filters on one of the two tables (they share the column names). */
function filtersOn(
  table: { status: AnyPgColumn; userId: AnyPgColumn; flag: AnyPgColumn },
  filters: AdminOrderFilters,
): SQL[] {
  const where: SQL[] = [];
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
async function purchaseKeys(
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
async function describePurchases(db: Db, keys: PurchaseKey[]): Promise<AdminOrder[]> {
  const singleIds = keys.filter((key) => key.kind === "order").map((key) => key.id);
  const bulkIds = keys.filter((key) => key.kind === "bulk").map((key) => key.id);
  const [singles, bulks, bulkLines] = await Promise.all([
    singleIds.length
      ? db
          .select({ order: orders, title: products.title, user: userColumns })
          .from(orders)
          .innerJoin(products, eq(products.id, orders.productId))
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
            title: products.title,
            amount: orders.amount,
            lineTotalCents: orders.lineTotalCents,
          })
          .from(orders)
          .innerJoin(products, eq(products.id, orders.productId))
          .where(inArray(orders.bulkOrderId, bulkIds))
          .orderBy(asc(orders.id))
      : [],
  ]);

  const described = new Map<string, AdminOrder>();
  for (const { order, title, user } of singles) {
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
          title: line.title,
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

/** Spreadsheets run a cell that starts like a formula: such text gets a leading quote (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180): quoted when it holds a quote, a comma or a line break. */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (fields: (string | number | null)[]) => `${fields.map(csvField).join(",")}\r\n`;

const money = (dollars: number) => dollars.toFixed(2);

function csvRow(order: AdminOrder): string {
  const row: Record<(typeof ORDER_CSV_COLUMNS)[number], string | number | null> = {
    number: order.number,
    kind: order.kind,
    id: order.id,
    userId: order.userId,
    email: order.user.email,
    status: order.status,
    flag: order.flag,
    serverPurchaseDate: order.serverPurchaseDate,
    price: money(order.price),
    shippingCost: money(order.shippingCost),
    purchaseId: order.purchaseId,
    products: order.products.map((line) => `${line.title} × ${line.amount}`).join("; "),
  };
  return csvLine(ORDER_CSV_COLUMNS.map((column) => row[column]));
}

export const CSV_BATCH = 500;

/**
 * GET /order/admin/export: every matching purchase as CSV, in the list's order. The rows are read in keyset
 * batches as the client takes them (the stream pulls the next batch only when the last one was sent), so
 * the whole export never sits in memory, and no transaction stays open while a slow client downloads.
 */
export function ordersCsv(db: Db, filters: AdminOrderFilters, batch = CSV_BATCH): Readable {
  async function* lines() {
    yield csvLine([...ORDER_CSV_COLUMNS]);
    let after: PurchaseKey | undefined;
    for (;;) {
      const keys = await purchaseKeys(db, filters, { limit: batch, after });
      if (keys.length === 0) return;
      yield (await describePurchases(db, keys)).map(csvRow).join("");
      if (keys.length < batch) return;
      after = keys.at(-1);
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

export interface StatusChangeDeps {
  /** Wakes the mail worker once a change queued its e-mail. */
  notifyMail?: () => void;
  /** Listings show stock: called after a change gave stock back or took it. */
  onStockChange?: () => void;
  /** Wakes the payments worker: cancelling a paid order queued its refund. */
  notifyRefunds?: () => void;
}

const LIST_LINE = "This line is in a shopper's list, not an order";
const NOT_FOUND = "Order Not Found";

/**
 * What a move does to the stock (SPEC.md §4; issue 13): a paid order holds its units, so cancelling it
 * gives them back and bringing a cancelled one (or one whose money arrived short) back to a paid status
 * takes them again. An order nobody paid for may only be cancelled.
 */
function stockMove(from: OrderStatus, flag: OrderFlag | null, to: AdminOrderStatus): "give" | "take" | null {
  if (from === "pending" && to !== "cancelled") throw new Conflict("This order hasn't been paid");
  if (isPaidStatus(from)) return to === "cancelled" ? "give" : null;
  if (!isPaidStatus(to)) return null;
  // Its money went back to the buyer: sending the goods now would give them away.
  if (flag === "refund_needed" || flag === "refunded")
    throw new Conflict("This order's payment was refunded: it can't be reopened");
  return "take";
}

/** Gives back or takes the units (summed per product), the products locked in id order; 409 if short. */
async function moveStock(tx: Db, units: Map<number, number>, move: "give" | "take") {
  const stocks = await lockStock(tx, units.keys());
  if (move === "give") return giveBackStock(tx, units);
  for (const [productId, amount] of units) {
    const stock = stocks.get(productId)?.stock ?? 0;
    if (stock < amount) {
      throw new Conflict(`Not enough stock of product ${productId}: ${stock} left, ${amount} needed`, {
        stock,
      });
    }
  }
  await takeStock(tx, units);
}

/**
 * An admin moving a pending (unpaid) purchase can only cancel it: its buyer's checkout stops holding units.
 * Taken before the purchase's row is locked, as the lock order says (checkouts first).
 */
async function releaseHoldsOfPending(tx: Db, table: typeof orders | typeof bulkOrders, id: number) {
  const [row] = await tx
    .select({ userId: table.userId, status: table.status })
    .from(table)
    .where(eq(table.id, id));
  if (row?.status === "pending") await releaseShopperHolds(tx, row.userId);
}

/** The audit row and, for a move the buyer hears of, their e-mail; true when a message was queued. */
async function recordMove(
  tx: Db,
  actor: Caller,
  order: StatusMailOrder & { userId: number },
  from: OrderStatus,
  to: AdminOrderStatus,
): Promise<boolean> {
  const action = order.kind === "bulk" ? "bulkOrder.status" : "order.status";
  const change = await recordChange(tx, actor, action, order.id, {
    before: { status: from },
    after: { status: to },
  });
  if (!(NOTIFIED_STATUSES as readonly string[]).includes(to)) return false;
  const [buyer] = await tx
    .select({ email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, order.userId));
  if (!buyer || buyer.deletedAt || isDeletedAddress(buyer.email)) return false;
  // The audit entry names this move: one move mails once, a later one again.
  const queued = await queueMail(tx, orderStatusMail(order, to as NotifiedStatus, buyer.email, change));
  return queued !== undefined;
}

/** The columns a status change sets: the purchase date too when an order becomes paid without one. */
const statusValues = (to: AdminOrderStatus, purchaseDate: AnyPgColumn) => {
  const now = new Date();
  return {
    status: to,
    updatedAt: now,
    ...(isPaidStatus(to)
      ? { serverPurchaseDate: sql<Date>`coalesce(${purchaseDate}, ${now.toISOString()}::timestamptz)` }
      : {}),
  };
};

/** Tells the caches and the mail worker after the commit. */
function afterCommit(
  deps: StatusChangeDeps,
  outcome: { stockMoved: boolean; mailed: boolean; refunding?: boolean },
) {
  if (outcome.stockMoved) deps.onStockChange?.();
  if (outcome.mailed) deps.notifyMail?.();
  if (outcome.refunding) deps.notifyRefunds?.();
}

/** A purchase line an admin may move: not a list line, not a line of a bulk order. */
function purchaseLine<T extends { status: OrderStatus; bulkOrderId: number | null }>(line: T | undefined): T {
  if (!line) throw new NotFound(NOT_FOUND);
  if (line.status === "inCart" || line.status === "inWishList") throw new Conflict(LIST_LINE);
  if (line.bulkOrderId !== null) {
    throw new Conflict(
      `This line belongs to bulk order ${line.bulkOrderId}: change the bulk order's status instead`,
    );
  }
  return line;
}

/** An admin's body, read by the admin's own schema: 400 with the field and the reason. */
function adminStatusOf(body: unknown): AdminOrderStatus {
  const parsed = adminStatusChangeSchema.safeParse(body);
  if (parsed.success) return parsed.data.status;
  const issue = parsed.error.issues[0]!;
  throw new InvalidInput(issue.path.join(".") || "status", issue.message);
}

/**
 * PUT /order/:id by an admin: any shopper's single purchase to another status. The target is checked before
 * the body, so a request aimed at a list line says so whatever it asked for.
 */
export async function changeOrderStatus(
  db: Db,
  actor: Caller,
  id: number,
  body: unknown,
  deps: StatusChangeDeps = {},
): Promise<OrderUpdateReply> {
  const outcome = await db.transaction(async (tx) => {
    await releaseHoldsOfPending(tx, orders, id);
    const [locked] = await tx
      .select({
        id: orders.id,
        userId: orders.userId,
        productId: orders.productId,
        amount: orders.amount,
        status: orders.status,
        flag: orders.flag,
        bulkOrderId: orders.bulkOrderId,
        checkoutId: orders.checkoutId,
        paidCents: sql<number>`coalesce(${orders.lineTotalCents}, 0) + coalesce(${orders.shippingCostCents}, 0)`,
      })
      .from(orders)
      .where(eq(orders.id, id))
      .for("update");
    const line = purchaseLine(locked);
    const to = adminStatusOf(body);
    const reply = (status: OrderStatus): OrderUpdateReply => ({
      msg: "Order updated",
      removed: false,
      order: { id: line.id, status, amount: line.amount, productId: line.productId },
    });
    // Asked twice (or by two admins at once): the second finds the status already there and changes nothing.
    if (line.status === to) return { reply: reply(to), stockMoved: false, mailed: false };
    const move = stockMove(line.status, line.flag, to);
    if (move) await moveStock(tx, new Map([[line.productId, line.amount]]), move);
    const refunding = move === "give" && (await refundCancelledPurchase(tx, line.checkoutId, line.paidCents));
    await tx
      .update(orders)
      .set({
        ...statusValues(to, orders.serverPurchaseDate),
        ...(refunding ? { flag: "refund_needed" } : {}),
      })
      .where(eq(orders.id, line.id));
    const [product] = await tx
      .select({ title: products.title })
      .from(products)
      .where(eq(products.id, line.productId));
    const mailed = await recordMove(
      tx,
      actor,
      {
        kind: "order",
        id: line.id,
        number: numberOf(line.checkoutId),
        userId: line.userId,
        products: [{ title: product?.title ?? "", amount: line.amount }],
      },
      line.status,
      to,
    );
    return { reply: reply(to), stockMoved: move !== null, mailed, refunding };
  });
  afterCommit(deps, outcome);
  return outcome.reply;
}

/** PUT /order/bulk/:id by an admin: a bulk order and every line of it to another status. */
export async function changeBulkOrderStatus(
  db: Db,
  actor: Caller,
  id: number,
  change: AdminStatusChange,
  deps: StatusChangeDeps = {},
): Promise<{ msg: string; id: number; status: OrderStatus }> {
  const to = change.status;
  const outcome = await db.transaction(async (tx) => {
    await releaseHoldsOfPending(tx, bulkOrders, id);
    const [bulk] = await tx
      .select({
        id: bulkOrders.id,
        userId: bulkOrders.userId,
        status: bulkOrders.status,
        flag: bulkOrders.flag,
        checkoutId: bulkOrders.checkoutId,
        paidCents: sql<number>`${bulkOrders.combinedPriceCents} + ${bulkOrders.combinedShippingCostCents}`,
      })
      .from(bulkOrders)
      .where(eq(bulkOrders.id, id))
      .for("update");
    if (!bulk) throw new NotFound(NOT_FOUND);
    const reply = { msg: "Order updated", id: bulk.id, status: to };
    if (bulk.status === to) return { reply, stockMoved: false, mailed: false };
    const move = stockMove(bulk.status, bulk.flag, to);
    const lines = await tx
      .select({
        id: orders.id,
        productId: orders.productId,
        amount: orders.amount,
      })
      .from(orders)
      .where(eq(orders.bulkOrderId, bulk.id))
      .orderBy(asc(orders.id))
      .for("update");
    if (move) await moveStock(tx, unitsPerProduct(lines), move);
    const refunding = move === "give" && (await refundCancelledPurchase(tx, bulk.checkoutId, bulk.paidCents));
    const flag = refunding ? { flag: "refund_needed" as const } : {};
    await tx
      .update(bulkOrders)
      .set({ ...statusValues(to, bulkOrders.serverPurchaseDate), ...flag })
      .where(eq(bulkOrders.id, bulk.id));
    await tx
      .update(orders)
      .set({ ...statusValues(to, orders.serverPurchaseDate), ...flag })
      .where(eq(orders.bulkOrderId, bulk.id));
    const titles = lines.length
      ? await tx
          .select({ id: products.id, title: products.title })
          .from(products)
          .where(
            inArray(
              products.id,
              lines.map((line) => line.productId),
            ),
          )
      : [];
    const titleOf = new Map(titles.map((row) => [row.id, row.title]));
    const mailed = await recordMove(
      tx,
      actor,
      {
        kind: "bulk",
        id: bulk.id,
        number: numberOf(bulk.checkoutId),
        userId: bulk.userId,
        products: lines.map((line) => ({ title: titleOf.get(line.productId) ?? "", amount: line.amount })),
      },
      bulk.status,
      to,
    );
    return { reply, stockMoved: move !== null, mailed, refunding };
  });
  afterCommit(deps, outcome);
  return outcome.reply;
}

import { asc, eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import {
  NOTIFIED_STATUSES,
  adminStatusChangeSchema,
  type AdminStatusChange,
  type OrderFlag,
} from "@voltio/domain/admin-orders";
import { numberOf } from "@voltio/domain/order-status";
import { isPaidStatus, type OrderStatus, type OrderUpdateReply } from "@voltio/domain/orders";
import type { Db } from "../../db/client";
import { trackingUrl } from "@voltio/domain/purchase";
import { adminPurchaseMove, type PurchaseRefusal } from "@voltio/domain/transitions";
import { bulkOrders, checkouts, orders, productVariants, products } from "../../db/schema";
import { Conflict, InvalidInput, NotFound } from "../../errors";
import { queueMail } from "../../integrations/mail/outbox";
import { recordChange } from "../audit/service";
import type { Caller } from "../identity/caller";
import {
  giveBackStock,
  lockVariants,
  releaseShopperHolds,
  takeStock,
  unitsPerVariant,
} from "../inventory/stock";
import { refundCancelledPurchase } from "../payments/refunds";
import { lineVariants, variantTitle, variantTitleColumns } from "../inventory/variants";
import { buyerEmail } from "../users/erasure";
import { orderPageUrl, orderStatusMail, type NotifiedStatus, type StatusMailOrder } from "./admin-mail";
import type { TrackingTemplates } from "./purchase-read-model";

/** An admin moves a purchase on (PUT /order/admin/:id, PUT /order/bulk/:id): stock, refunds, audit, e-mail. */

type AdminOrderStatus = AdminStatusChange["status"];

export interface StatusChangeDeps {
  /** Wakes the mail worker once a change queued its e-mail. */
  notifyMail?: () => void;
  /** This process wrote what the store shows: its next replies wait for that write's own change notification. */
  catalogWritten?: () => void;
  /** Wakes the payments worker: cancelling a paid order queued its refund. */
  notifyRefunds?: () => void;
  /** Carrier → tracking page: the shipping e-mail links the parcel's tracking. */
  trackingUrlTemplates?: TrackingTemplates;
}

/** The parcel's tracking as the order row keeps it. */
interface Tracking {
  trackingNumber: string | null;
  carrier: string | null;
}

/**
 * The tracking a move leaves on the order: shipping (onDelivery) with a tracking number or carrier sets
 * them; any other move keeps what the parcel had (the delivered e-mail still names it).
 */
function trackingAfter(current: Tracking, change: AdminStatusChange): Tracking {
  if (change.status !== "onDelivery" || (!change.trackingNumber && !change.carrier))
    return { trackingNumber: current.trackingNumber, carrier: current.carrier };
  return { trackingNumber: change.trackingNumber ?? null, carrier: change.carrier ?? null };
}

const sameTracking = (a: Tracking, b: Tracking) =>
  a.trackingNumber === b.trackingNumber && a.carrier === b.carrier;

const LIST_LINE = "This line is in a shopper's list, not an order";
const NOT_FOUND = "Order Not Found";

const REFUSALS: Record<PurchaseRefusal, string> = {
  unpaid: "This order hasn't been paid",
  // Its money went back to the buyer: sending the goods now would give them away.
  refunded: "This order's payment was refunded: it can't be reopened",
  "not allowed": "This order can't take that status",
};

/**
 * What a move does to the stock, as the moves table says (a paid order holds its units: cancelling it gives
 * them back, reopening a cancelled one takes them again); 409 for a move the table doesn't allow.
 */
function stockMove(
  from: OrderStatus,
  flag: OrderFlag | null,
  to: AdminOrderStatus,
  paid: boolean,
): "give" | "take" | null {
  const outcome = adminPurchaseMove(from, to, { paid, flag });
  if ("refused" in outcome) throw new Conflict(REFUSALS[outcome.refused]);
  if (outcome.move.stock === "gives stock back") return "give";
  return outcome.move.stock === "takes stock" ? "take" : null;
}

/** Gives back or takes the units (summed per variant), the products and variants locked in id order; 409 if short. */
async function moveStock(tx: Db, units: Map<number, number>, move: "give" | "take") {
  const stocks = await lockVariants(tx, units.keys());
  if (move === "give") return giveBackStock(tx, units);
  for (const [variantId, amount] of units) {
    const stock = stocks.get(variantId)?.stock ?? 0;
    if (stock < amount) {
      throw new Conflict(
        `Not enough stock of product ${stocks.get(variantId)?.productId} (variant ${variantId}): ${stock} left, ${amount} needed`,
        { stock },
      );
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
  order: Omit<StatusMailOrder, "link" | "tracking"> & { userId: number; checkoutId: number | null },
  from: OrderStatus,
  to: AdminOrderStatus,
  tracking: Tracking,
  templates: TrackingTemplates = {},
): Promise<boolean> {
  const action = order.kind === "bulk" ? "bulkOrder.status" : "order.status";
  const change = await recordChange(tx, actor, action, order.id, {
    before: { status: from },
    after: { status: to, ...(tracking.trackingNumber || tracking.carrier ? tracking : {}) },
  });
  if (!(NOTIFIED_STATUSES as readonly string[]).includes(to)) return false;
  const email = await buyerEmail(tx, order.userId);
  if (!email) return false;
  // The order page's link: at the store's address the buyer paid from.
  const [checkout] = order.checkoutId
    ? await tx
        .select({ baseUrl: checkouts.baseUrl })
        .from(checkouts)
        .where(eq(checkouts.id, order.checkoutId))
    : [];
  const mailed: StatusMailOrder = {
    ...order,
    link: checkout && order.number ? orderPageUrl(checkout.baseUrl, order.number) : null,
    tracking: tracking.trackingNumber
      ? {
          number: tracking.trackingNumber,
          carrier: tracking.carrier,
          url: trackingUrl(templates, tracking.carrier, tracking.trackingNumber),
        }
      : null,
  };
  // The audit entry names this move: one move mails once, a later one again.
  const queued = await queueMail(tx, orderStatusMail(mailed, to as NotifiedStatus, email, change));
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
  if (outcome.stockMoved) deps.catalogWritten?.();
  if (outcome.mailed) deps.notifyMail?.();
  if (outcome.refunding) deps.notifyRefunds?.();
}

/**
 * Single and bulk orders draw their ids from one sequence (migration 0024), so an id names one kind: a move
 * sent to the other kind's address finds nothing and says where that id belongs, instead of moving anything.
 */
async function notFoundOfKind(tx: Db, kind: "order" | "bulk", id: number): Promise<NotFound> {
  if (kind === "order") {
    const [bulk] = await tx.select({ id: bulkOrders.id }).from(bulkOrders).where(eq(bulkOrders.id, id));
    return new NotFound(
      bulk
        ? `${NOT_FOUND}: ${id} is a bulk order, not a single order: move it with PUT /order/bulk/${id}`
        : NOT_FOUND,
    );
  }
  const [line] = await tx
    .select({ status: orders.status, bulkOrderId: orders.bulkOrderId })
    .from(orders)
    .where(eq(orders.id, id));
  if (!line || line.status === "inCart" || line.status === "inWishList") return new NotFound(NOT_FOUND);
  return new NotFound(
    line.bulkOrderId === null
      ? `${NOT_FOUND}: ${id} is a single order, not a bulk order: move it with PUT /order/${id}`
      : `${NOT_FOUND}: ${id} is a line of bulk order ${line.bulkOrderId}: move it with PUT /order/bulk/${line.bulkOrderId}`,
  );
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
function adminStatusOf(body: unknown): AdminStatusChange {
  const parsed = adminStatusChangeSchema.safeParse(body);
  if (parsed.success) return parsed.data;
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
        variantId: orders.variantId,
        amount: orders.amount,
        status: orders.status,
        flag: orders.flag,
        bulkOrderId: orders.bulkOrderId,
        checkoutId: orders.checkoutId,
        trackingNumber: orders.trackingNumber,
        carrier: orders.carrier,
        paidCents: sql<number>`coalesce(${orders.lineTotalCents}, 0) + coalesce(${orders.shippingCostCents}, 0)`,
      })
      .from(orders)
      .where(eq(orders.id, id))
      .for("update");
    if (!locked) throw await notFoundOfKind(tx, "order", id);
    const line = purchaseLine(locked);
    const change = adminStatusOf(body);
    const to = change.status;
    const tracking = trackingAfter(line, change);
    const reply = (status: OrderStatus): OrderUpdateReply => ({
      msg: "Order updated",
      removed: false,
      order: {
        id: line.id,
        status,
        amount: line.amount,
        productId: line.productId,
        variantId: line.variantId,
      },
    });
    // Asked twice (or by two admins at once): the second finds the status already there and changes nothing;
    // a shipped order given its tracking later is told again.
    if (line.status === to && sameTracking(line, tracking))
      return { reply: reply(to), stockMoved: false, mailed: false };
    const move = stockMove(line.status, line.flag, to, line.checkoutId !== null);
    if (move) await moveStock(tx, new Map([[line.variantId, line.amount]]), move);
    const refunding = move === "give" && (await refundCancelledPurchase(tx, line.checkoutId, line.paidCents));
    await tx
      .update(orders)
      .set({
        ...statusValues(to, orders.serverPurchaseDate),
        ...tracking,
        ...(refunding ? { flag: "refund_needed" } : {}),
      })
      .where(eq(orders.id, line.id));
    const [product] = await tx
      .select(variantTitleColumns)
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(eq(productVariants.id, line.variantId));
    const mailed = await recordMove(
      tx,
      actor,
      {
        kind: "order",
        id: line.id,
        number: numberOf(line.checkoutId),
        userId: line.userId,
        checkoutId: line.checkoutId,
        products: [{ title: product ? variantTitle(product) : "", amount: line.amount }],
      },
      line.status,
      to,
      tracking,
      deps.trackingUrlTemplates,
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
        trackingNumber: bulkOrders.trackingNumber,
        carrier: bulkOrders.carrier,
        paidCents: sql<number>`${bulkOrders.combinedPriceCents} + ${bulkOrders.combinedShippingCostCents}`,
      })
      .from(bulkOrders)
      .where(eq(bulkOrders.id, id))
      .for("update");
    if (!bulk) throw await notFoundOfKind(tx, "bulk", id);
    const reply = { msg: "Order updated", id: bulk.id, status: to };
    const tracking = trackingAfter(bulk, change);
    if (bulk.status === to && sameTracking(bulk, tracking))
      return { reply, stockMoved: false, mailed: false };
    const move = stockMove(bulk.status, bulk.flag, to, bulk.checkoutId !== null);
    const lines = await tx
      .select({
        id: orders.id,
        variantId: orders.variantId,
        amount: orders.amount,
      })
      .from(orders)
      .where(eq(orders.bulkOrderId, bulk.id))
      .orderBy(asc(orders.id))
      .for("update");
    if (move) await moveStock(tx, unitsPerVariant(lines), move);
    const refunding = move === "give" && (await refundCancelledPurchase(tx, bulk.checkoutId, bulk.paidCents));
    const flag = refunding ? { flag: "refund_needed" as const } : {};
    await tx
      .update(bulkOrders)
      .set({ ...statusValues(to, bulkOrders.serverPurchaseDate), ...tracking, ...flag })
      .where(eq(bulkOrders.id, bulk.id));
    await tx
      .update(orders)
      .set({ ...statusValues(to, orders.serverPurchaseDate), ...flag })
      .where(eq(orders.bulkOrderId, bulk.id));
    const names = await lineVariants(
      tx,
      lines.map((line) => line.variantId),
    );
    const mailed = await recordMove(
      tx,
      actor,
      {
        kind: "bulk",
        id: bulk.id,
        number: numberOf(bulk.checkoutId),
        userId: bulk.userId,
        checkoutId: bulk.checkoutId,
        products: lines.map((line) => ({
          title: names.get(line.variantId)?.name ?? "",
          amount: line.amount,
        })),
      },
      bulk.status,
      to,
      tracking,
      deps.trackingUrlTemplates,
    );
    return { reply, stockMoved: move !== null, mailed, refunding };
  });
  afterCommit(deps, outcome);
  return outcome.reply;
}

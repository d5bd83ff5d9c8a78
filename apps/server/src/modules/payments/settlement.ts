import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { checkoutIdOf, orderNumber } from "@voltio/domain/order-status";
import { dateStringIn } from "@voltio/domain/weekday";
import type { FeedbackReply, PaymentOutcome } from "@voltio/domain/payments";
import type { Db } from "../../db/client";
import { checkoutTotals } from "@voltio/domain/checkout";
import { bulkOrders, checkouts, orders, paymentEvents, payments } from "../../db/schema";
import { NotFound } from "../../errors";
import type { PaymentProvider, ProviderPayment } from "../../integrations/payments/provider";
import { queueMail } from "../../integrations/mail/outbox";
import { lockVariants, releaseHolds, sellable, takeStock, unitsPerVariant } from "../inventory/stock";
import { lineVariants } from "../inventory/variants";
import { buyerEmail } from "../users/erasure";
import { coveredBy, lockCheckout, startDied } from "./checkout";
import { assertMove } from "./moves";
import { orderConfirmation } from "./order-mail";
import { queueAutomaticRefund, type AutomaticRefundCause } from "./refunds";

/**
 * Settlement (docs/product-rules.md §11): what the provider says of a payment, recorded, and an
 * approved one either finishes its checkout's orders (the hold becomes a sale) or, when it can't be delivered
 * (a closed or already paid checkout, the wrong amount or currency, orders no longer pending, stock gone, a
 * retired product), is refunded through the provider. The return page, the webhook, the re-check worker and
 * their repeats make exactly one transition between them: the checkout's row is locked first.
 */

/** The currency the store sells in: a payment in any other is refunded. */
export const STORE_CURRENCY = "usd";

export interface Settled {
  reply: FeedbackReply;
  /** Stock was taken (listings must show it). */
  stockTaken: boolean;
  /** A refund was queued (the payments worker should run now) or mail was queued. */
  refundQueued: boolean;
  mailed: boolean;
}

const replyOf = (Status: PaymentOutcome, payment: ProviderPayment): FeedbackReply => ({
  Status,
  Payment: payment.id,
  ...(Status === "rejected" && payment.declineReason ? { reason: payment.declineReason } : {}),
});

/** A payment being settled, in the transaction that locked its checkout. */
interface Settling {
  tx: Db;
  payment: ProviderPayment;
  checkout: NonNullable<Awaited<ReturnType<typeof lockCheckout>>>;
  /** The payment's row as this report left it. */
  row: { id: number; refundedCents: number };
}

const settled = (
  { payment }: Pick<Settling, "payment">,
  Status: PaymentOutcome,
  extra: Partial<Settled> = {},
): Settled => ({
  reply: replyOf(Status, payment),
  stockTaken: false,
  refundQueued: false,
  mailed: false,
  ...extra,
});

/** Why an approved payment can't buy its checkout's orders: given back with this outcome, note and cause. */
interface Undeliverable {
  outcome: "refund_needed" | "amount_mismatch";
  note: string;
  cause: AutomaticRefundCause;
}

/**
 * What the provider says of a payment, recorded; an approved one finishes its checkout's orders or is
 * refunded. Each outcome is one function below, in the order they are tried.
 */
export async function settlePayment(
  db: Db,
  provider: PaymentProvider,
  payment: ProviderPayment,
  options: {
    userId?: number;
    eventId?: string;
    /** STORE_TIMEZONE: the purchase's local date, when its buyer's client gave none, is the store's. */
    storeTimeZone?: string;
  } = {},
): Promise<Settled> {
  const checkoutId = checkoutIdOf(payment.reference);
  if (checkoutId === null) throw new NotFound("Payment Not Found");
  return db.transaction(async (tx) => {
    // Lock order (inventory/stock.ts): the shopper and the checkout, then its payment, bulk orders, lines and
    // products. Under the shopper's lock no newer Pay can replace the checkout until this is settled.
    const checkout = await lockCheckout(tx, checkoutId, provider.name, options.userId);
    if (!checkout) throw new NotFound("Payment Not Found");
    const { before, row } = await recordPayment(tx, provider.name, checkout.id, payment, options.eventId);
    const settling: Settling = { tx, payment, checkout, row };

    if (payment.status !== "approved") return notApproved(settling);
    if (before) await flagMoneyBack(settling, before);
    const earlier = alreadySettled(settling);
    if (earlier) return earlier;
    const closed = undeliverable(checkout, payment);
    if (closed) return refundUndeliverable(settling, closed);
    const lines = await lockCoveredLines(settling);
    const changed = ordersChanged(checkout, lines);
    if (changed) return refundUndeliverable(settling, changed);
    // The checkout's own holds are its to take; past their expiry, whatever other shoppers left.
    const units = unitsPerVariant(lines);
    const stocks = await lockVariants(tx, units.keys(), checkout.id);
    if ([...units].some(([id, amount]) => sellable(stocks.get(id)) < amount)) return stockGone(settling);
    return finishOrders(settling, lines, units, options.storeTimeZone);
  });
}

/** The provider's report, recorded (and its event, once): the row before it, if any, and after. */
async function recordPayment(
  tx: Db,
  provider: string,
  checkoutId: number,
  payment: ProviderPayment,
  eventId: string | undefined,
) {
  const [before] = await tx
    .select({ status: payments.status, refundedCents: payments.refundedCents, disputed: payments.disputed })
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, payment.id)))
    .for("update");
  assertMove("payment", before?.status ?? null, payment.status, "provider");
  const [row] = await tx
    .insert(payments)
    .values({
      provider,
      providerPaymentId: payment.id,
      status: payment.status,
      amountCents: payment.amountCents,
      currency: payment.currency,
      refundedCents: payment.refundedCents,
      disputed: payment.disputed,
      checkoutId,
      rawPayload: payment.raw,
    })
    .onConflictDoUpdate({
      target: [payments.provider, payments.providerPaymentId],
      set: {
        status: payment.status,
        amountCents: payment.amountCents,
        currency: payment.currency,
        // The provider's count includes the store's own refunds: never below what the store recorded.
        refundedCents: sql`greatest(${payments.refundedCents}, ${payment.refundedCents})`,
        disputed: sql`${payments.disputed} or ${payment.disputed}`,
        rawPayload: payment.raw,
      },
    })
    .returning({ id: payments.id, refundedCents: payments.refundedCents });
  if (eventId) {
    await tx.insert(paymentEvents).values({ provider, eventId, paymentId: row!.id }).onConflictDoNothing();
  }
  return { before, row: row! };
}

/**
 * Pending or declined. A declined card gives the units back at once; the checkout stays payable (another
 * card on the provider's page) but the next Pay makes a new one, holding again.
 */
async function notApproved({ tx, payment, checkout }: Settling): Promise<Settled> {
  if (payment.status === "rejected" && checkout.status === "open") {
    await releaseHolds(tx, checkout.id);
    await tx.update(checkouts).set({ expiresAt: new Date() }).where(eq(checkouts.id, checkout.id));
  }
  return settled({ payment }, payment.status);
}

/** Refunds or a dispute the provider reports after the fact: the purchase is flagged for the owner. */
async function flagMoneyBack(
  { tx, payment, checkout, row }: Settling,
  before: { refundedCents: number; disputed: boolean },
) {
  if (payment.disputed && !before.disputed) {
    await tx.update(orders).set({ flag: "disputed" }).where(eq(orders.checkoutId, checkout.id));
    await tx.update(bulkOrders).set({ flag: "disputed" }).where(eq(bulkOrders.checkoutId, checkout.id));
  }
  if (row.refundedCents > before.refundedCents && row.refundedCents >= payment.amountCents) {
    const refunded = { flag: "refunded" as const };
    await tx.update(orders).set(refunded).where(eq(orders.checkoutId, checkout.id));
    await tx.update(bulkOrders).set(refunded).where(eq(bulkOrders.checkoutId, checkout.id));
  }
}

/** This very payment settled the checkout before (a repeated report): the same answer, nothing done. */
function alreadySettled({ payment, checkout }: Settling): Settled | null {
  if (checkout.providerPaymentId !== payment.id) return null;
  if (checkout.status === "paid") return settled({ payment }, "approved");
  if (checkout.status === "refund_needed" || checkout.status === "amount_mismatch")
    return settled({ payment }, checkout.status);
  return null;
}

/** Paid on a checkout that can't take it, or in the wrong currency or amount; null when it can. */
function undeliverable(checkout: Settling["checkout"], payment: ProviderPayment): Undeliverable | null {
  // Paid on a checkout that was closed (a newer one replaced it) or paid already: a duplicate.
  if (checkout.status !== "open" && checkout.status !== "expired")
    return {
      outcome: "refund_needed",
      note: `paid on a ${checkout.status} checkout`,
      cause: { kind: "closed checkout", status: checkout.status, paidBy: checkout.providerPaymentId },
    };
  // Past its hold, then the shopper paid again: the newer checkout is the one that pays their orders.
  if (!checkout.current)
    return {
      outcome: "refund_needed",
      note: "paid on a checkout a newer one followed",
      cause: { kind: "closed checkout", status: "replaced", paidBy: checkout.providerPaymentId },
    };
  if (payment.currency.toLowerCase() !== STORE_CURRENCY)
    return {
      outcome: "amount_mismatch",
      note: `paid in ${payment.currency}, not ${STORE_CURRENCY}`,
      cause: { kind: "currency", currency: payment.currency },
    };
  if (payment.amountCents !== checkout.amountCents)
    return {
      outcome: "amount_mismatch",
      note: `paid ${payment.amountCents} cents of ${checkout.amountCents}`,
      cause: { kind: "amount", paidCents: payment.amountCents, dueCents: checkout.amountCents },
    };
  return null;
}

/**
 * Money that can't buy anything: given back in full, once, the buyer told why, and the checkout closed if
 * it was open.
 */
async function refundUndeliverable(
  { tx, payment, checkout, row }: Settling,
  { outcome, note, cause }: Undeliverable,
): Promise<Settled> {
  const { queued, mailed } = await queueAutomaticRefund(tx, checkout, {
    paymentId: row.id,
    providerPaymentId: payment.id,
    amountCents: payment.amountCents - row.refundedCents,
    note,
    cause,
  });
  if (checkout.status === "open" || checkout.status === "expired") {
    assertMove("checkout", checkout.status, outcome, "provider");
    await tx
      .update(checkouts)
      .set({ status: outcome, providerPaymentId: payment.id })
      .where(eq(checkouts.id, checkout.id));
    await releaseHolds(tx, checkout.id);
  }
  return settled({ payment }, outcome, { refundQueued: queued, mailed });
}

/** The checkout's bulk orders, then its lines, locked in that order (inventory/stock.ts). */
async function lockCoveredLines({ tx, checkout }: Settling) {
  if (checkout.bulkOrderIds.length)
    await tx
      .select({ id: bulkOrders.id })
      .from(bulkOrders)
      .where(inArray(bulkOrders.id, checkout.bulkOrderIds))
      .orderBy(asc(bulkOrders.id))
      .for("update");
  return tx
    .select({
      id: orders.id,
      status: orders.status,
      flag: orders.flag,
      productId: orders.productId,
      variantId: orders.variantId,
      amount: orders.amount,
      lineTotalCents: orders.lineTotalCents,
      shippingCostCents: orders.shippingCostCents,
    })
    .from(orders)
    .where(coveredBy(checkout))
    .orderBy(asc(orders.id))
    .for("update");
}

type CoveredLine = Awaited<ReturnType<typeof lockCoveredLines>>[number];

/** The orders aren't what was charged any more; null while they are. */
function ordersChanged(checkout: Settling["checkout"], lines: CoveredLine[]): Undeliverable | null {
  const stillPending =
    lines.length > 0 &&
    lines.every((line) => line.status === "pending" && line.flag === null) &&
    checkout.orderIds.every((id) => lines.some((line) => line.id === id));
  if (!stillPending)
    return {
      outcome: "refund_needed",
      note: "its orders were no longer pending",
      cause: { kind: "orders not pending" },
    };
  // A line taken back to the cart leaves its bulk order (ADR 0015): what is left isn't what was charged.
  const covered = lines.map((line) => ({
    lineTotalCents: line.lineTotalCents ?? 0,
    shippingCents: line.shippingCostCents ?? 0,
  }));
  if (checkoutTotals(covered).totalCents !== checkout.amountCents)
    return {
      outcome: "refund_needed",
      note: "its orders changed after it was made",
      cause: { kind: "orders changed" },
    };
  return null;
}

/**
 * Another buyer took the last units after this checkout's hold ended, or the product was retired: the
 * orders are cancelled and the money goes back.
 */
async function stockGone(settling: Settling): Promise<Settled> {
  const { tx, payment, checkout } = settling;
  const cancelled = {
    flag: "refund_needed" as const,
    status: "cancelled" as const,
    purchaseId: payment.id,
  };
  const outcome = await refundUndeliverable(settling, {
    outcome: "refund_needed",
    note: "the stock was gone",
    cause: { kind: "stock gone" },
  });
  await flagCheckoutOrders(tx, checkout, { ...cancelled, checkoutId: checkout.id });
  return outcome;
}

/** The hold becomes a sale: the orders finished, the checkout paid, the buyer's confirmation queued. */
async function finishOrders(
  { tx, payment, checkout }: Settling,
  lines: CoveredLine[],
  units: Map<number, number>,
  storeTimeZone: string | undefined,
): Promise<Settled> {
  assertMove("checkout", checkout.status, "paid", "provider");
  await takeStock(tx, units);
  await releaseHolds(tx, checkout.id);
  const now = new Date();
  const finished = {
    status: "finished" as const,
    purchaseId: payment.id,
    serverPurchaseDate: now,
    shippingAddress: checkout.shippingAddress,
    checkoutId: checkout.id,
    updatedAt: now,
  };
  // SPEC's client heads its purchases with this date: a date its client sent when buying stays.
  const localDate = dateStringIn(storeTimeZone ?? "UTC", now);
  const dated = (column: AnyPgColumn) => ({
    localPurchaseDate: sql<string>`coalesce(${column}, ${localDate})`,
  });
  await tx
    .update(orders)
    .set({ ...finished, ...dated(orders.localPurchaseDate) })
    .where(
      inArray(
        orders.id,
        lines.map((line) => line.id),
      ),
    );
  if (checkout.bulkOrderIds.length)
    await tx
      .update(bulkOrders)
      .set({ ...finished, ...dated(bulkOrders.localPurchaseDate) })
      .where(inArray(bulkOrders.id, checkout.bulkOrderIds));
  await tx
    .update(checkouts)
    .set({ status: "paid", providerPaymentId: payment.id })
    .where(eq(checkouts.id, checkout.id));
  const mailed = await mailConfirmation({ tx, payment, checkout }, lines, units);
  return settled({ payment }, "approved", { stockTaken: true, mailed });
}

/** The buyer's order confirmation, with the products' titles; false when there is nobody to mail. */
async function mailConfirmation(
  { tx, payment, checkout }: Omit<Settling, "row">,
  lines: CoveredLine[],
  units: Map<number, number>,
) {
  const names = await lineVariants(tx, [...units.keys()]);
  const email = await buyerEmail(tx, checkout.userId);
  return email
    ? (await queueMail(
        tx,
        orderConfirmation(
          checkout,
          email,
          payment.id,
          lines.map((line) => ({ ...line, title: names.get(line.variantId)?.name ?? "" })),
        ),
      )) !== undefined
    : false;
}

/** The orders (and bulk orders) a checkout covers, changed alike. */
async function flagCheckoutOrders(
  tx: Db,
  checkout: { orderIds: number[]; bulkOrderIds: number[] },
  change: Partial<typeof orders.$inferInsert>,
) {
  if (checkout.orderIds.length)
    await tx.update(orders).set(change).where(inArray(orders.id, checkout.orderIds));
  if (checkout.bulkOrderIds.length) {
    await tx.update(bulkOrders).set(change).where(inArray(bulkOrders.id, checkout.bulkOrderIds));
    await tx.update(orders).set(change).where(inArray(orders.bulkOrderId, checkout.bulkOrderIds));
  }
}

/**
 * Asks the provider what became of an open checkout (its return may have been lost: a closed tab) and
 * settles it; one past its hold with nothing paid, or whose start died, is closed, here and at the provider.
 */
export async function recheckCheckout(
  db: Db,
  provider: PaymentProvider,
  checkout: { id: number; providerCheckoutId: string | null; expiresAt: Date },
  options: { expire: boolean; storeTimeZone?: string },
): Promise<Settled | null> {
  let settled: Settled | null = null;
  if (checkout.providerCheckoutId) {
    const payment = await provider.paymentOfCheckout({
      reference: orderNumber(checkout.id),
      providerCheckoutId: checkout.providerCheckoutId,
    });
    if (payment)
      settled = await settlePayment(db, provider, payment, { storeTimeZone: options.storeTimeZone });
    if (settled?.reply.Status === "pending") return settled;
  }
  const pastHold = checkout.expiresAt < new Date();
  // One whose start died (a crash before the provider answered) never gets a session: its units go back now.
  if (options.expire && (pastHold || !checkout.providerCheckoutId) && settled?.reply.Status !== "approved") {
    const [expired] = await db.transaction(async (tx) => {
      assertMove("checkout", "open", "expired", "system");
      const closed = await tx
        .update(checkouts)
        .set({ status: "expired" })
        .where(
          and(eq(checkouts.id, checkout.id), eq(checkouts.status, "open"), pastHold ? undefined : startDied),
        )
        .returning({ id: checkouts.id });
      if (closed.length) await releaseHolds(tx, checkout.id);
      return closed;
    });
    if (expired && checkout.providerCheckoutId) await provider.closeCheckout(checkout.providerCheckoutId);
  }
  return settled;
}

/** Before a new checkout: the shopper's open one, asked of the provider and settled if it was paid. */
export async function recheckShopper(
  db: Db,
  provider: PaymentProvider,
  userId: number,
  storeTimeZone?: string,
) {
  const open = await db
    .select({
      id: checkouts.id,
      providerCheckoutId: checkouts.providerCheckoutId,
      expiresAt: checkouts.expiresAt,
    })
    .from(checkouts)
    .where(
      and(
        eq(checkouts.userId, userId),
        eq(checkouts.status, "open"),
        isNotNull(checkouts.providerCheckoutId),
      ),
    );
  const outcomes = [];
  for (const checkout of open)
    outcomes.push(await recheckCheckout(db, provider, checkout, { expire: false, storeTimeZone }));
  return outcomes;
}

/** How long a checkout is left to its return page and webhook before the worker asks the provider. */
export const RECHECK_AFTER_SECONDS = 60;

/**
 * Claims open checkouts no process has looked at for a minute (any process; SKIP LOCKED, like the mail
 * outbox): their re-check is this process's until the next minute.
 */
export async function claimStaleCheckouts(db: Db, limit = 20) {
  const stale = sql`now() - make_interval(secs => ${RECHECK_AFTER_SECONDS})`;
  return db
    .update(checkouts)
    .set({ checkedAt: sql`now()` })
    .where(
      inArray(
        checkouts.id,
        db
          .select({ id: checkouts.id })
          .from(checkouts)
          .where(
            and(
              eq(checkouts.status, "open"),
              lt(checkouts.createdAt, stale),
              or(isNull(checkouts.checkedAt), lt(checkouts.checkedAt, stale)),
            ),
          )
          .orderBy(sql`${checkouts.checkedAt} nulls first`)
          .limit(limit)
          .for("update", { skipLocked: true }),
      ),
    )
    .returning({
      id: checkouts.id,
      providerCheckoutId: checkouts.providerCheckoutId,
      expiresAt: checkouts.expiresAt,
    });
}

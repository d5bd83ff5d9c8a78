import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { toCents, toDollars } from "@voltio/domain/money";
import type { RefundBody } from "@voltio/domain/payments";
import { movesBetween } from "@voltio/domain/transitions";
import type { Db } from "../../db/client";
import { bulkOrders, checkouts, orders, payments, refunds } from "../../db/schema";
import { Conflict, InvalidInput, NotFound } from "../../errors";
import type { PaymentProvider } from "../../integrations/payments/provider";
import { queueMail } from "../../integrations/mail/outbox";
import type { Caller } from "../identity/caller";
import { recordChange } from "../audit/service";
import { giveBackStock, lockVariants, unitsPerVariant } from "../inventory/stock";
import { buyerEmail } from "../users/erasure";
import { automaticRefundReason, refundMail } from "./order-mail";

/**
 * Refunds through the provider. A refund is queued in the transaction that decides it
 * (a row of `refunds`), sent after the commit and retried by the payments worker until the provider takes
 * it; the refund's id is its idempotency key, so a retry after a lost answer refunds once.
 */

/** Attempts before a refund is left for the owner (shown as needing attention). */
const MAX_ATTEMPTS = 8;

/**
 * Queues a refund of a payment. An automatic one is queued once per payment, whoever decides it again (a
 * repeated notification). False when nothing was queued.
 */
export async function queueRefund(
  tx: Db,
  refund: {
    paymentId: number;
    amountCents: number;
    reason: string;
    automatic?: boolean;
    requestedBy?: number;
  },
): Promise<boolean> {
  if (refund.amountCents <= 0) return false;
  if (refund.automatic) {
    const [earlier] = await tx
      .select({ id: refunds.id })
      .from(refunds)
      .where(and(eq(refunds.paymentId, refund.paymentId), isNull(refunds.requestedBy)));
    if (earlier) return false;
  }
  await tx.insert(refunds).values({
    paymentId: refund.paymentId,
    amountCents: refund.amountCents,
    reason: refund.reason,
    requestedBy: refund.requestedBy ?? null,
  });
  return true;
}

/** What made the store give a payment back on its own (settlement.ts), for the buyer's e-mail. */
export type AutomaticRefundCause =
  | { kind: "closed checkout"; status: CheckoutStatus; paidBy: string | null }
  | { kind: "currency"; currency: string }
  | { kind: "amount"; paidCents: number; dueCents: number }
  | { kind: "orders not pending" }
  | { kind: "orders changed" }
  | { kind: "stock gone" };

type CheckoutStatus = (typeof checkouts.$inferSelect)["status"];

/**
 * Queues the store's own refund of what is left of a payment and, when it was queued, its e-mail to the buyer
 * with the reason: the owner's refund template, in the same transaction. Like the owner's refund, the buyer is
 * written to when the refund is decided, not when the provider takes it: they have just paid and must learn
 * now that the order isn't coming, and a refund the provider refuses is retried, then left to the owner
 * (who sees it as needing attention), not dropped. `note` is the owner's record of why.
 */
export async function queueAutomaticRefund(
  tx: Db,
  checkout: { id: number; userId: number; baseUrl: string },
  refund: {
    paymentId: number;
    providerPaymentId: string;
    amountCents: number;
    note: string;
    cause: AutomaticRefundCause;
  },
): Promise<{ queued: boolean; mailed: boolean }> {
  const queued = await queueRefund(tx, {
    paymentId: refund.paymentId,
    amountCents: refund.amountCents,
    reason: refund.note,
    automatic: true,
  });
  const email = queued ? await buyerEmail(tx, checkout.userId) : null;
  if (!email) return { queued, mailed: false };
  const mailed = await queueMail(
    tx,
    refundMail(checkout, email, {
      providerPaymentId: refund.providerPaymentId,
      amountCents: refund.amountCents,
      // One automatic refund per payment (queueRefund).
      key: `automatic:${refund.paymentId}`,
      ...automaticRefundReason(refund.cause),
    }),
  );
  return { queued, mailed: mailed !== undefined };
}

/**
 * An admin cancelled a paid purchase (a single line, or a bulk order): its share of the checkout's payment —
 * its products and shipping — goes back through the provider. False when there is no payment to refund
 * from (an order paid before payments were recorded).
 */
export async function refundCancelledPurchase(tx: Db, checkoutId: number | null, amountCents: number) {
  if (checkoutId === null) return false;
  const [payment] = await tx
    .select({ id: payments.id, amountCents: payments.amountCents, refundedCents: payments.refundedCents })
    .from(payments)
    .innerJoin(checkouts, eq(checkouts.id, payments.checkoutId))
    .where(
      and(eq(payments.checkoutId, checkoutId), eq(checkouts.providerPaymentId, payments.providerPaymentId)),
    );
  if (!payment) return false;
  return queueRefund(tx, {
    paymentId: payment.id,
    amountCents: Math.min(amountCents, payment.amountCents - (await givenBack(tx, payment))),
    reason: "the store cancelled the order",
  });
}

/** What of a payment is given back or on its way back: the refunds queued and taken, or what the provider says. */
async function givenBack(tx: Db, payment: { id: number; refundedCents: number }): Promise<number> {
  const [queued] = await tx
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payment.id), inArray(refunds.status, ["pending", "succeeded"])));
  return Math.max(payment.refundedCents, Number(queued?.cents ?? 0));
}

/** The next refund due, claimed for a while by pushing its next attempt back (SKIP LOCKED: any process). */
async function claimDueRefund(db: Db) {
  const [claimed] = await db
    .update(refunds)
    .set({
      attempts: sql`${refunds.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => 30 * power(2, ${refunds.attempts}))`,
    })
    .where(
      inArray(
        refunds.id,
        db
          .select({ id: refunds.id })
          .from(refunds)
          .where(and(eq(refunds.status, "pending"), lte(refunds.nextAttemptAt, sql`now()`)))
          .orderBy(refunds.id)
          .limit(1)
          .for("update", { skipLocked: true }),
      ),
    )
    .returning();
  if (!claimed) return undefined;
  const [payment] = await db.select().from(payments).where(eq(payments.id, claimed.paymentId));
  return { refund: claimed, payment: payment! };
}

/** Sends every refund that is due; returns how many the provider took. */
export async function runDueRefunds(
  db: Db,
  provider: PaymentProvider,
  log?: { warn: (object: object, message: string) => void },
): Promise<number> {
  let done = 0;
  for (let claimed = await claimDueRefund(db); claimed; claimed = await claimDueRefund(db)) {
    const { refund, payment } = claimed;
    try {
      const taken = await provider.refund(
        payment.providerPaymentId,
        refund.amountCents,
        `voltio-refund-${refund.id}`,
      );
      await db.transaction(async (tx) => {
        const [succeeded] = await tx
          .update(refunds)
          .set({ status: "succeeded", providerRefundId: taken.id, lastError: null })
          .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")))
          .returning({ id: refunds.id });
        if (!succeeded) return;
        const [paid] = await tx
          .update(payments)
          .set({
            refundedCents: sql`least(${payments.amountCents}, ${payments.refundedCents} + ${refund.amountCents})`,
          })
          .where(eq(payments.id, payment.id))
          .returning({ refundedCents: payments.refundedCents, amountCents: payments.amountCents });
        // Orders waiting for this money to go back now say it went back.
        const waiting = and(eq(orders.checkoutId, payment.checkoutId), eq(orders.flag, "refund_needed"));
        if (paid!.refundedCents >= paid!.amountCents) {
          await tx.update(orders).set({ flag: "refunded" }).where(waiting);
          await tx
            .update(bulkOrders)
            .set({ flag: "refunded" })
            .where(and(eq(bulkOrders.checkoutId, payment.checkoutId), eq(bulkOrders.flag, "refund_needed")));
        }
      });
      done++;
    } catch (error) {
      const message = (error as Error).message;
      await db
        .update(refunds)
        .set({
          lastError: message.slice(0, 500),
          status: refund.attempts >= MAX_ATTEMPTS ? "failed" : "pending",
        })
        .where(eq(refunds.id, refund.id));
      log?.warn(
        { refund: refund.id, attempts: refund.attempts, error: message },
        "refund not taken by the provider",
      );
    }
  }
  return done;
}

/** Statuses of a paid order whose units are still in the store: a full refund puts them back on the shelf. */
const NOT_SHIPPED = ["finished", "preparing"] as const;

/**
 * POST /payment/admin/:id/refund: the owner gives back all (by default) or part of an approved payment. A
 * full refund cancels the purchase (its unshipped units go back on the shelf); the buyer is told; audited.
 */
export async function refundPayment(db: Db, actor: Caller, paymentId: number, body: RefundBody) {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ checkoutId: payments.checkoutId })
      .from(payments)
      .where(eq(payments.id, paymentId));
    if (!found) throw new NotFound("Payment Not Found");
    // Lock order: the checkout before the payment, as settlement takes them.
    const [checkout] = await tx
      .select()
      .from(checkouts)
      .where(eq(checkouts.id, found.checkoutId))
      .for("update");
    const payment = (await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update"))[0]!;
    // A refund leaves the payment approved: the table lists it as the admin's approved → approved move.
    if (movesBetween("payment", payment.status, "approved", "admin").length === 0)
      throw new Conflict("Only an approved payment can be refunded");
    const given = await givenBack(tx, payment);
    const left = payment.amountCents - given;
    if (left <= 0) throw new Conflict("This payment has been refunded in full already");
    const amountCents = body.amount === undefined ? left : toCents(body.amount);
    if (amountCents > left)
      throw new InvalidInput(
        "amount",
        `must be at most ${toDollars(left).toFixed(2)}, what is left of the payment`,
      );
    await queueRefund(tx, { paymentId, amountCents, reason: body.reason, requestedBy: actor.id });

    const full = amountCents === left;
    const isThisPurchase =
      checkout!.status === "paid" && checkout!.providerPaymentId === payment.providerPaymentId;
    if (full && isThisPurchase) {
      if (checkout!.bulkOrderIds.length)
        await tx
          .select({ id: bulkOrders.id })
          .from(bulkOrders)
          .where(inArray(bulkOrders.id, checkout!.bulkOrderIds))
          .for("update");
      const lines = await tx
        .select({ id: orders.id, variantId: orders.variantId, amount: orders.amount, status: orders.status })
        .from(orders)
        .where(eq(orders.checkoutId, checkout!.id))
        .for("update");
      const unshipped = lines.filter((line) => (NOT_SHIPPED as readonly string[]).includes(line.status));
      const units = unitsPerVariant(unshipped);
      await lockVariants(tx, units.keys());
      await giveBackStock(tx, units);
      const cancelled = {
        status: "cancelled" as const,
        flag: "refund_needed" as const,
        updatedAt: new Date(),
      };
      await tx.update(orders).set(cancelled).where(eq(orders.checkoutId, checkout!.id));
      await tx.update(bulkOrders).set(cancelled).where(eq(bulkOrders.checkoutId, checkout!.id));
    }
    await recordChange(tx, actor, "payment.refund", paymentId, {
      before: { refunded: toDollars(given) },
      after: { refunded: toDollars(given + amountCents), reason: body.reason },
    });
    const email = await buyerEmail(tx, checkout!.userId);
    if (email)
      await queueMail(
        tx,
        refundMail(checkout!, email, {
          providerPaymentId: payment.providerPaymentId,
          amountCents,
          key: `refund:${paymentId}:${given}`,
        }),
      );
    return {
      msg: "Refund requested",
      id: paymentId,
      refunding: toDollars(amountCents),
      cancelled: full && isThisPurchase,
    };
  });
}

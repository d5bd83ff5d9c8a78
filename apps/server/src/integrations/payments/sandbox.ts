import { randomBytes } from "node:crypto";
import { and, eq, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { sandboxCharges, sandboxRefunds } from "../../db/schema";
import { InvalidInput, UpstreamUnavailable } from "../../errors";
import type { CheckoutRequest, PaymentProvider, ProviderPayment, ProviderRefund } from "./provider";
import { SANDBOX_EVENT_TYPE, SANDBOX_SIGNATURE_HEADER, verifySandboxSignature } from "./sandbox-webhook";

/**
 * The built-in payment provider: a hosted card page of our own that works with no
 * internet, with the test cards every provider documents. It keeps its own books (sandbox_charges,
 * sandbox_refunds), as a payment company would, and notifies the store's webhook of what the card page decided
 * (sandbox-webhook.ts); the store reads a payment's outcome from its books, never from the return URL or the
 * notification's body.
 */
export const SANDBOX_CARDS = {
  "4242424242424242": "approved",
  "4000000000000002": "rejected",
  "4000000000009995": "pending",
} as const;

const UPSTREAM = "The sandbox";

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

export type SandboxCharge = typeof sandboxCharges.$inferSelect;

/**
 * A charge is `open` until a card is tried, then approved, rejected or pending as the card decided (a rejected
 * or pending one may be tried again); `expired` once closed or past its hold unpaid. An approved one stays so.
 */
const PAYMENT_STATUSES = new Map<string, ProviderPayment["status"]>([
  ["approved", "approved"],
  ["rejected", "rejected"],
  ["pending", "pending"],
  // A card was tried, then the checkout closed: that attempt will never be paid.
  ["expired", "rejected"],
]);

const CLOSED_REASON = "The payment was closed before it was completed.";

/** The payment of a charge as the sandbox's books have it; null while no card was tried. */
function paymentOf(charge: SandboxCharge): ProviderPayment | null {
  const status = PAYMENT_STATUSES.get(charge.status);
  if (!charge.paymentId || !status) return null;
  return {
    id: charge.paymentId,
    status,
    amountCents: charge.amountCents,
    reference: charge.reference,
    // The sandbox charges in dollars only, and nobody's bank disputes a test card.
    currency: "usd",
    refundedCents: charge.refundedCents,
    disputed: false,
    declineReason:
      status === "rejected"
        ? (charge.declineReason ?? (charge.status === "expired" ? CLOSED_REASON : undefined))
        : undefined,
    raw: {
      charge: charge.id,
      status: charge.status,
      declineReason: charge.declineReason,
      refundedCents: charge.refundedCents,
    },
  };
}

const eventSchema = z.object({
  id: z.string().regex(/^evt_[A-Za-z0-9]{1,64}$/),
  type: z.string().max(100),
  data: z.object({ payment_id: z.string().min(1).max(100) }).optional(),
});

export interface SandboxSettings {
  /** Signs the sandbox's notifications to the store (config: SANDBOX_WEBHOOK_SECRET or derived). */
  webhookSecret: string;
}

export function sandboxProvider(db: Db, settings: SandboxSettings): PaymentProvider {
  const chargeOfPayment = async (paymentId: string) =>
    (await db.select().from(sandboxCharges).where(eq(sandboxCharges.paymentId, paymentId)))[0];

  return {
    name: "sandbox",
    async createCheckout(request: CheckoutRequest) {
      const id = newId("sbx_ch");
      await db.insert(sandboxCharges).values({
        id,
        reference: request.reference,
        amountCents: request.amountCents,
        description: request.description,
        successUrl: request.successUrl,
        failureUrl: request.failureUrl,
        expiresAt: request.expiresAt,
      });
      return { id, initPoint: new URL(`/pay/sandbox/${id}`, request.successUrl).href };
    },

    async paymentFromReturn(query) {
      const paymentId = query.payment_id;
      if (!paymentId) return null;
      const charge = await chargeOfPayment(paymentId);
      return charge ? paymentOf(charge) : null;
    },

    async paymentFromWebhook({ headers, rawBody }) {
      verifySandboxSignature(settings.webhookSecret, headers[SANDBOX_SIGNATURE_HEADER], rawBody);
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString("utf8"));
      } catch {
        throw new InvalidInput("body", "must be a sandbox event in JSON");
      }
      const event = eventSchema.safeParse(body);
      if (!event.success) throw new InvalidInput("body", "must be a sandbox event in JSON");
      if (event.data.type !== SANDBOX_EVENT_TYPE) return null;
      if (!event.data.data) throw new InvalidInput("data.payment_id", "must be a sandbox payment id");
      // The event names the payment; what became of it is read from the books, not from the event.
      const charge = await chargeOfPayment(event.data.data.payment_id);
      const payment = charge ? paymentOf(charge) : null;
      return payment && { eventId: event.data.id, payment };
    },

    async refund(paymentId, amountCents, idempotencyKey): Promise<ProviderRefund> {
      if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
        throw new UpstreamUnavailable(UPSTREAM, `refused a refund of ${amountCents} cents of ${paymentId}`);
      return db.transaction(async (tx) => {
        const [charge] = await tx
          .select()
          .from(sandboxCharges)
          .where(eq(sandboxCharges.paymentId, paymentId))
          .for("update");
        if (!charge) throw new UpstreamUnavailable(UPSTREAM, `has no payment ${paymentId} to refund`);
        // Read under the charge's lock: a call with the same key that got there first has committed by now.
        const [earlier] = await tx
          .select()
          .from(sandboxRefunds)
          .where(eq(sandboxRefunds.idempotencyKey, idempotencyKey));
        if (earlier) {
          if (earlier.chargeId !== charge.id || earlier.amountCents !== amountCents)
            throw new UpstreamUnavailable(
              UPSTREAM,
              `refused idempotency key ${idempotencyKey}: it was used for another refund (${earlier.id})`,
            );
          return { id: earlier.id, status: "succeeded" };
        }
        if (charge.status !== "approved")
          throw new UpstreamUnavailable(
            UPSTREAM,
            `refused to refund payment ${paymentId}: it is ${charge.status}`,
          );
        const left = charge.amountCents - charge.refundedCents;
        if (amountCents > left)
          throw new UpstreamUnavailable(
            UPSTREAM,
            `refused a refund of ${amountCents} cents of payment ${paymentId}: ${left} cents are left of it`,
          );
        const id = newId("sbx_re");
        const [made] = await tx
          .insert(sandboxRefunds)
          .values({ id, chargeId: charge.id, amountCents, idempotencyKey })
          .onConflictDoNothing()
          .returning({ id: sandboxRefunds.id });
        // The same key, at the same moment, for another payment's refund.
        if (!made)
          throw new UpstreamUnavailable(UPSTREAM, `refused idempotency key ${idempotencyKey}: it is in use`);
        await tx
          .update(sandboxCharges)
          .set({ refundedCents: sql`${sandboxCharges.refundedCents} + ${amountCents}` })
          .where(eq(sandboxCharges.id, charge.id));
        return { id, status: "succeeded" };
      });
    },

    async closeCheckout(chargeId) {
      await db
        .update(sandboxCharges)
        .set({ status: "expired" })
        .where(
          and(eq(sandboxCharges.id, chargeId), notInArray(sandboxCharges.status, ["approved", "expired"])),
        );
    },

    async paymentOfCheckout({ reference, providerCheckoutId }) {
      const [charge] = await db
        .select()
        .from(sandboxCharges)
        .where(eq(sandboxCharges.id, providerCheckoutId));
      if (!charge || charge.reference !== reference || charge.status === "expired") return null;
      return paymentOf(charge);
    },
  };
}

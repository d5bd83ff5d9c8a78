import Stripe from "stripe";
import { InvalidInput, UpstreamUnavailable } from "../../errors";
import {
  InvalidWebhookSignature,
  WEBHOOK_TOLERANCE_SECONDS,
  type PaymentProvider,
  type ProviderPayment,
  type ProviderRefund,
} from "./provider";

/**
 * Stripe Checkout with the official SDK: a checkout is a Checkout Session; a payment is the session as
 * Stripe has it, retrieved by id from the return page's `session_id` or from a signed webhook event.
 */
export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Scheme, host and port of the API: Stripe's own, or a fake in tests. */
  apiUrl: string;
}

const UPSTREAM = "Stripe";
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;
const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9_]{1,250}$/;

/** The events that can change what became of a Checkout Session's payment; others are acknowledged only. */
const SESSION_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
]);

/** Events about a paid session's charge after the sale: a refund (from the dashboard too) or a dispute. */
const CHARGE_EVENTS = new Set(["charge.refunded", "charge.dispute.created", "charge.dispute.closed"]);

/**
 * Stripe takes a session's `expires_at` from 30 minutes to 24 hours after its creation; a minute of margin
 * each side keeps the clocks' skew and the request's own time from pushing it out of that window.
 */
const MIN_SESSION_SECONDS = 30 * 60 + 60;
const MAX_SESSION_SECONDS = 24 * 3600 - 60;

/** When a session made now for a checkout held until `expiresAt` expires, in Unix seconds. */
export function sessionExpiry(expiresAt: Date, now = Date.now()): number {
  const nowSeconds = Math.floor(now / 1000);
  const wanted = Math.floor(expiresAt.getTime() / 1000);
  return Math.min(Math.max(wanted, nowSeconds + MIN_SESSION_SECONDS), nowSeconds + MAX_SESSION_SECONDS);
}

/**
 * `paid` is money taken, and stays so when it is later refunded or disputed (the charge says how much came
 * back). A session that expired was never paid; a PaymentIntent back at `requires_payment_method` after an
 * attempt (a declined card on a session still open, a bank debit that failed after completion) or canceled
 * is a payment that failed. Anything else is still on its way.
 */
function statusOf(
  session: Stripe.Checkout.Session,
  intent: Stripe.PaymentIntent | null,
): ProviderPayment["status"] {
  if (session.payment_status === "paid") return "approved";
  if (session.status === "expired" || intent?.status === "canceled") return "rejected";
  if (
    intent?.status === "requires_payment_method" &&
    (session.status === "complete" || intent.last_payment_error)
  )
    return "rejected";
  return "pending";
}

export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const api = new URL(settings.apiUrl);
  const stripe = new Stripe(settings.secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === "http:" ? 80 : 443),
    protocol: api.protocol === "http:" ? "http" : "https",
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: "Voltio" },
  });

  /** A call to the API (the SDK retries network failures itself, with an idempotency key); null for a 404. */
  async function ask<T>(what: string, call: () => Promise<T>): Promise<T | null> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw new UpstreamUnavailable(UPSTREAM, `failed ${what}: ${(error as Error).message}`);
    }
  }

  /** The session as Stripe has it, and its payment; null for one Stripe or this store doesn't know. */
  async function lookUpSession(
    sessionId: string,
  ): Promise<{ session: Stripe.Checkout.Session; payment: ProviderPayment } | null> {
    // The charge tells what came back of the payment (refunds) and whether the buyer's bank disputed it.
    const session = await ask(`GET /v1/checkout/sessions/${sessionId}`, () =>
      stripe.checkout.sessions.retrieve(sessionId, { expand: ["payment_intent.latest_charge"] }),
    );
    const reference = session?.client_reference_id ?? session?.metadata?.reference;
    // A session of the same account that no checkout of this store made.
    if (!session || !reference) return null;
    const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
    const charge = typeof intent?.latest_charge === "object" ? intent.latest_charge : null;
    const status = statusOf(session, intent);
    const payment: ProviderPayment = {
      // The PaymentIntent is the payment; a session that never got one is known by its own id.
      id: intent?.id ?? (session.payment_intent as string | null) ?? session.id,
      status,
      amountCents: session.amount_total ?? 0,
      reference,
      currency: (session.currency ?? intent?.currency ?? "").toLowerCase(),
      refundedCents: charge?.amount_refunded ?? 0,
      disputed: charge?.disputed ?? false,
      declineReason: status === "rejected" ? intent?.last_payment_error?.message : undefined,
      raw: session,
    };
    return { session, payment };
  }

  const sessionPayment = async (sessionId: string) => (await lookUpSession(sessionId))?.payment ?? null;

  /** The Checkout Session that made a PaymentIntent, asked of Stripe: a charge's events name only the intent. */
  async function sessionOfIntent(paymentIntentId: string): Promise<string | null> {
    const sessions = await ask(`GET /v1/checkout/sessions?payment_intent=${paymentIntentId}`, () =>
      stripe.checkout.sessions.list({ payment_intent: paymentIntentId, limit: 1 }),
    );
    return sessions?.data[0]?.id ?? null;
  }

  return {
    name: "stripe",
    async createCheckout(request) {
      const session = await ask("POST /v1/checkout/sessions", () =>
        stripe.checkout.sessions.create({
          mode: "payment",
          line_items: request.items.map((item) => ({
            quantity: item.amount,
            price_data: {
              currency: "usd",
              unit_amount: item.unitPriceCents,
              product_data: { name: item.title },
            },
          })),
          // Stripe fills in the session id: the return page names it to GET /stripe/feedback.
          success_url: `${request.successUrl}?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: request.failureUrl,
          client_reference_id: request.reference,
          metadata: { reference: request.reference },
          customer_email: request.payerEmail,
          payment_intent_data: { description: request.description },
          // The store's hold, as near as Stripe allows: a shorter one is closed by closeCheckout when it ends.
          expires_at: sessionExpiry(request.expiresAt),
        }),
      );
      if (!session?.url) throw new UpstreamUnavailable(UPSTREAM, "made a Checkout Session without a url");
      return { id: session.id, initPoint: session.url };
    },

    async paymentFromReturn(query) {
      const sessionId = query.session_id;
      return sessionId && SESSION_ID.test(sessionId) ? sessionPayment(sessionId) : null;
    },

    async paymentFromWebhook({ headers, rawBody }) {
      const signature = headers["stripe-signature"];
      if (typeof signature !== "string" || !signature)
        throw new InvalidWebhookSignature("A Stripe notification needs its Stripe-Signature header");
      let event: unknown;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          settings.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new InvalidWebhookSignature(
            "Stripe-Signature does not match this notification, or is too old",
          );
        throw new InvalidInput("body", "must be a Stripe event in JSON");
      }
      const { id, type, data } = (event ?? {}) as {
        id?: unknown;
        type?: unknown;
        data?: { object?: unknown };
      };
      if (typeof id !== "string" || typeof type !== "string")
        throw new InvalidInput("body", "must be a Stripe event in JSON");
      const object = data?.object as { id?: unknown; payment_intent?: unknown } | undefined;
      let sessionId: string | null;
      if (SESSION_EVENTS.has(type)) {
        sessionId = typeof object?.id === "string" ? object.id : null;
        if (!sessionId || !SESSION_ID.test(sessionId))
          throw new InvalidInput("data.object.id", "must be a Checkout Session id");
      } else if (CHARGE_EVENTS.has(type)) {
        // A charge or a dispute: both name the PaymentIntent, whose session is the store's checkout. One
        // without any (a charge made directly, not through Checkout) is none of the store's.
        const intentId = object?.payment_intent;
        if (intentId === null) return null;
        if (typeof intentId !== "string" || !PAYMENT_INTENT_ID.test(intentId))
          throw new InvalidInput("data.object.payment_intent", "must be a PaymentIntent id");
        sessionId = await sessionOfIntent(intentId);
        // A charge of the same account that no Checkout Session made (an invoice, another integration).
        if (!sessionId) return null;
      } else {
        return null;
      }
      // The event says which session; what became of it is asked of Stripe, not read from the event.
      const payment = await sessionPayment(sessionId);
      return payment && { eventId: id, payment };
    },

    async refund(providerPaymentId, amountCents, idempotencyKey): Promise<ProviderRefund> {
      if (!PAYMENT_INTENT_ID.test(providerPaymentId))
        throw new InvalidInput("providerPaymentId", "must be a Stripe PaymentIntent id");
      const refund = await ask("POST /v1/refunds", () =>
        stripe.refunds.create({ payment_intent: providerPaymentId, amount: amountCents }, { idempotencyKey }),
      );
      if (!refund)
        throw new UpstreamUnavailable(UPSTREAM, `has no PaymentIntent ${providerPaymentId} to refund`);
      // A card refund succeeds at once; some methods take days (pending) or need the buyer (requires_action).
      if (refund.status === "succeeded") return { id: refund.id, status: "succeeded" };
      if (refund.status === "pending" || refund.status === "requires_action")
        return { id: refund.id, status: "pending" };
      throw new UpstreamUnavailable(
        UPSTREAM,
        `refund ${refund.id} of ${providerPaymentId} is ${refund.status}`,
      );
    },

    async closeCheckout(sessionId) {
      if (!SESSION_ID.test(sessionId))
        throw new InvalidInput("providerCheckoutId", "must be a Checkout Session id");
      try {
        await stripe.checkout.sessions.expire(sessionId);
        return;
      } catch (error) {
        // One Stripe doesn't know can't be paid either.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return;
        // Stripe expires open sessions only: one already complete or expired is as closed as it gets.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.statusCode !== 400)
          throw new UpstreamUnavailable(
            UPSTREAM,
            `failed POST /v1/checkout/sessions/${sessionId}/expire: ${(error as Error).message}`,
          );
      }
      const session = await ask(`GET /v1/checkout/sessions/${sessionId}`, () =>
        stripe.checkout.sessions.retrieve(sessionId),
      );
      if (session?.status === "open")
        throw new UpstreamUnavailable(UPSTREAM, `refused to expire the open Checkout Session ${sessionId}`);
    },

    async paymentOfCheckout({ reference, providerCheckoutId }) {
      if (!SESSION_ID.test(providerCheckoutId)) return null;
      const found = await lookUpSession(providerCheckoutId);
      // A session gets its PaymentIntent when the shopper first submits: none, and nothing was tried.
      if (!found?.session.payment_intent || found.payment.reference !== reference) return null;
      return found.payment;
    },
  };
}

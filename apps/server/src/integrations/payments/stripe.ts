import Stripe from "stripe";
import { InvalidInput, UpstreamUnavailable } from "../../errors";
import {
  InvalidWebhookSignature,
  WEBHOOK_TOLERANCE_SECONDS,
  type PaymentProvider,
  type ProviderPayment,
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

/** The events that can change what became of a Checkout Session's payment; others are acknowledged only. */
const SESSION_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
]);

/**
 * `paid` is money taken. A session that expired was never paid; a completed one whose delayed payment (a
 * bank debit) failed has a PaymentIntent back at `requires_payment_method`. Anything else is still on its way.
 */
function statusOf(
  session: Stripe.Checkout.Session,
  intent: Stripe.PaymentIntent | null,
): ProviderPayment["status"] {
  if (session.payment_status === "paid") return "approved";
  if (session.status === "expired") return "rejected";
  if (
    session.status === "complete" &&
    (intent?.status === "requires_payment_method" || intent?.status === "canceled")
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

  async function sessionPayment(sessionId: string): Promise<ProviderPayment | null> {
    const session = await ask(`GET /v1/checkout/sessions/${sessionId}`, () =>
      stripe.checkout.sessions.retrieve(sessionId, { expand: ["payment_intent"] }),
    );
    const reference = session?.client_reference_id ?? session?.metadata?.reference;
    // A session of the same account that no checkout of this store made.
    if (!session || !reference) return null;
    const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
    const status = statusOf(session, intent);
    return {
      // The PaymentIntent is the payment; a session that never got one is known by its own id.
      id: intent?.id ?? (session.payment_intent as string | null) ?? session.id,
      status,
      amountCents: session.amount_total ?? 0,
      reference,
      declineReason: status === "rejected" ? intent?.last_payment_error?.message : undefined,
      raw: session,
    };
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
      if (!SESSION_EVENTS.has(type)) return null;
      const sessionId = (data?.object as { id?: unknown } | undefined)?.id;
      if (typeof sessionId !== "string" || !SESSION_ID.test(sessionId))
        throw new InvalidInput("data.object.id", "must be a Checkout Session id");
      // The event says which session; what became of it is asked of Stripe, not read from the event.
      const payment = await sessionPayment(sessionId);
      return payment && { eventId: id, payment };
    },
  };
}

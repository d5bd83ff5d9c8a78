import { createHmac, randomBytes } from "node:crypto";
import { startFakeServer, type FakeReply, type ReceivedRequest } from "./http";

/**
 * Stripe's API as Checkout uses it (POST /v1/checkout/sessions form-encoded, GET /v1/checkout/sessions/{id}
 * with `expand[]`), with the Checkout Session, PaymentIntent, event and error objects of its API reference,
 * and webhook events signed as Stripe signs them (Stripe-Signature `t=…,v1=…`, the HMAC-SHA256 of
 * `{t}.{body}`). The official SDK talks to it unchanged.
 */
export const STRIPE_SECRET_KEY = "sk_test_fakeVoltio4815162342";
export const STRIPE_WEBHOOK_SECRET = "whsec_fakeVoltioSigningSecret";
/** The API version the events are written in (the SDK's pinned one). */
const API_VERSION = "2026-10-28.endive";

type Json = Record<string, unknown>;

export interface CheckoutSession extends Json {
  id: string;
  object: "checkout.session";
  amount_total: number;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  payment_status: "paid" | "unpaid" | "no_payment_required";
  status: "open" | "complete" | "expired";
  success_url: string;
  cancel_url: string | null;
  url: string | null;
}

export interface PaymentIntent extends Json {
  id: string;
  object: "payment_intent";
  amount: number;
  status: "processing" | "requires_payment_method" | "succeeded" | "canceled";
}

/** What became of a session's payment on Stripe's page: paid, still processing (a bank debit), failed. */
export type SessionOutcome = "paid" | "processing" | "failed";

/** A PaymentIntent's last_payment_error after a bank debit failed. */
const DEBIT_FAILED = {
  code: "payment_intent_payment_attempt_failed",
  message: "The customer's bank account could not be debited.",
  type: "invalid_request_error",
};

const newId = (prefix: string) => `${prefix}_${randomBytes(18).toString("base64url").replace(/[-_]/g, "x")}`;
const now = () => Math.floor(Date.now() / 1000);

/** Stripe's error body. */
const stripeError = (status: number, error: Json): FakeReply => ({
  status,
  body: { error: { request_log_url: `https://dashboard.stripe.com/test/logs/${newId("req")}`, ...error } },
});

/**
 * Stripe's form encoding (`line_items[0][price_data][currency]=usd`) as the nested object it stands for;
 * every value stays text, as Stripe receives it.
 */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replaceAll("]", "").split("[");
    let node: Json = root;
    path.forEach((part, index) => {
      const next = path[index + 1];
      if (next === undefined) node[part] = value;
      else node = (node[part] ??= /^\d*$/.test(next) ? [] : {}) as Json;
    });
  }
  return root;
}

/** A POST to the store's webhook with `payload`, its Stripe-Signature made with `secret` at `timestamp`. */
function signed(
  payload: string,
  { secret = STRIPE_WEBHOOK_SECRET, timestamp = now() }: { secret?: string; timestamp?: number } = {},
) {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return {
    method: "POST" as const,
    url: "/api/stripe/webhook",
    headers: {
      "content-type": "application/json; charset=utf-8",
      "stripe-signature": `t=${timestamp},v1=${signature}`,
    },
    payload,
  };
}

export async function startFakeStripe() {
  const sessions = new Map<string, CheckoutSession>();
  const intents = new Map<string, PaymentIntent>();
  /** Each session's create parameters, as the store sent them. */
  const params = new Map<string, Json>();
  /** Idempotency-Key → the reply it got: Stripe replays it for the same key. */
  const idempotent = new Map<string, FakeReply>();
  let origin = "";

  const missingParam = (param: string) =>
    stripeError(400, {
      code: "parameter_missing",
      doc_url: "https://stripe.com/docs/error-codes/parameter-missing",
      message: `Missing required param: ${param}.`,
      param,
      type: "invalid_request_error",
    });

  function createSession(request: ReceivedRequest): FakeReply {
    const asked = parseStripeForm(request.text);
    if (asked.mode !== "payment") return missingParam("mode");
    const lineItems = asked.line_items as Json[] | undefined;
    if (!Array.isArray(lineItems) || lineItems.length === 0) return missingParam("line_items");
    if (typeof asked.success_url !== "string") return missingParam("success_url");
    let amountTotal = 0;
    for (const [index, item] of lineItems.entries()) {
      const priceData = item.price_data as Json | undefined;
      const quantity = Number(item.quantity);
      const unitAmount = Number(priceData?.unit_amount);
      if (!Number.isInteger(quantity) || quantity < 1) return missingParam(`line_items[${index}][quantity]`);
      if (priceData?.currency !== "usd" || !Number.isInteger(unitAmount) || unitAmount < 0)
        return missingParam(`line_items[${index}][price_data]`);
      if (!(priceData.product_data as Json | undefined)?.name)
        return missingParam(`line_items[${index}][price_data][product_data][name]`);
      amountTotal += quantity * unitAmount;
    }
    const id = newId("cs_test");
    const created = now();
    const session: CheckoutSession = {
      id,
      object: "checkout.session",
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: amountTotal,
      amount_total: amountTotal,
      automatic_tax: { enabled: false, liability: null, status: null },
      billing_address_collection: null,
      cancel_url: typeof asked.cancel_url === "string" ? asked.cancel_url : null,
      client_reference_id: typeof asked.client_reference_id === "string" ? asked.client_reference_id : null,
      client_secret: null,
      created,
      currency: "usd",
      customer: null,
      customer_creation: "if_required",
      customer_details: null,
      customer_email: typeof asked.customer_email === "string" ? asked.customer_email : null,
      expires_at: created + 24 * 3600,
      invoice: null,
      livemode: false,
      locale: null,
      metadata: (asked.metadata as Record<string, string> | undefined) ?? {},
      mode: "payment",
      payment_intent: null,
      payment_method_types: ["card"],
      payment_status: "unpaid",
      status: "open",
      success_url: asked.success_url,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: "hosted",
      url: `${origin}/c/pay/${id}`,
    };
    sessions.set(id, session);
    params.set(id, asked);
    return { status: 200, body: session };
  }

  /** The session as the API shows it, its PaymentIntent expanded when asked. */
  const shown = (session: CheckoutSession, expand: unknown[] = []): Json =>
    expand.includes("payment_intent") && session.payment_intent
      ? { ...session, payment_intent: intents.get(session.payment_intent) }
      : session;

  const server = await startFakeServer((request) => {
    if (request.headers.authorization !== `Bearer ${STRIPE_SECRET_KEY}`)
      return stripeError(401, {
        message: "Invalid API Key provided: sk_test_****",
        type: "invalid_request_error",
      });
    const key = request.headers["idempotency-key"];
    const replay = request.method === "POST" && typeof key === "string" ? idempotent.get(key) : undefined;
    if (replay) return { ...replay, headers: { "idempotent-replayed": "true" } };
    if (request.method === "POST" && request.path === "/v1/checkout/sessions") {
      const reply = createSession(request);
      if (typeof key === "string") idempotent.set(key, reply);
      return reply;
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    if (request.method === "GET" && sessionPath) {
      const session = sessions.get(decodeURIComponent(sessionPath[1]!));
      if (!session)
        return stripeError(404, {
          code: "resource_missing",
          doc_url: "https://stripe.com/docs/error-codes/resource-missing",
          message: `No such checkout.session: '${decodeURIComponent(sessionPath[1]!)}'`,
          param: "session",
          type: "invalid_request_error",
        });
      const { expand } = parseStripeForm(request.query.toString());
      return { status: 200, body: shown(session, Array.isArray(expand) ? expand : []) };
    }
    return stripeError(404, {
      message: `Unrecognized request URL (${request.method}: ${request.path}).`,
      type: "invalid_request_error",
    });
  });
  origin = server.url;

  const sessionOf = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`no Checkout Session ${id}`);
    return session;
  };

  return {
    ...server,
    sessions,
    /** What the store sent to make a session, decoded (every value as text). */
    asked(id: string): Json {
      const asked = params.get(id);
      if (!asked) throw new Error(`no Checkout Session ${id}`);
      return asked;
    },

    /**
     * The shopper completes a session on Stripe's page. `amountTotal` (cents) makes Stripe's record of it
     * another amount than the store asked for.
     */
    complete(id: string, outcome: SessionOutcome = "paid", { amountTotal }: { amountTotal?: number } = {}) {
      const session = sessionOf(id);
      if (amountTotal !== undefined) session.amount_total = amountTotal;
      const intent: PaymentIntent = {
        id: newId("pi"),
        object: "payment_intent",
        amount: session.amount_total,
        amount_received: outcome === "paid" ? session.amount_total : 0,
        created: now(),
        currency: "usd",
        description: (params.get(id)?.payment_intent_data as Json | undefined)?.description ?? null,
        last_payment_error: outcome === "failed" ? DEBIT_FAILED : null,
        livemode: false,
        metadata: {},
        payment_method_types: ["card"],
        status: { paid: "succeeded", processing: "processing", failed: "requires_payment_method" }[
          outcome
        ] as PaymentIntent["status"],
      };
      intents.set(intent.id, intent);
      Object.assign(session, {
        status: "complete",
        payment_status: outcome === "paid" ? "paid" : "unpaid",
        payment_intent: intent.id,
        customer_details: { email: session.customer_email, name: "Test Shopper" },
        url: null,
      });
      return session;
    },

    /** A delayed payment (a bank debit) settles later: Stripe's record becomes paid, or failed. */
    settle(id: string, outcome: Exclude<SessionOutcome, "processing">) {
      const session = sessionOf(id);
      const intent = intents.get(session.payment_intent ?? "");
      if (!intent) throw new Error(`session ${id} has no PaymentIntent`);
      Object.assign(intent, {
        status: outcome === "paid" ? "succeeded" : "requires_payment_method",
        last_payment_error: outcome === "paid" ? null : DEBIT_FAILED,
      });
      session.payment_status = outcome === "paid" ? "paid" : "unpaid";
    },

    /** The session times out unpaid. */
    expire(id: string) {
      Object.assign(sessionOf(id), { status: "expired", url: null });
    },

    /** Where Checkout sends the shopper back: the success URL with the session id filled in. */
    returnUrl(id: string): URL {
      return new URL(sessionOf(id).success_url.replace("{CHECKOUT_SESSION_ID}", id));
    },

    /**
     * The webhook event Stripe sends about a session (pretty-printed JSON, as Stripe sends it), signed with
     * `secret` at `timestamp` (Unix seconds). An unknown `id` makes an event about a session that isn't here.
     */
    event(type: string, id: string, signing: { secret?: string; timestamp?: number } = {}) {
      const session = sessions.get(id);
      const payload = JSON.stringify(
        {
          id: newId("evt"),
          object: "event",
          api_version: API_VERSION,
          created: signing.timestamp ?? now(),
          data: { object: session ? shown(session) : { id, object: "checkout.session" } },
          livemode: false,
          pending_webhooks: 1,
          request: { id: null, idempotency_key: null },
          type,
        },
        null,
        2,
      );
      return signed(payload, signing);
    },

    /** Any body as a webhook request signed the way Stripe signs its events. */
    signed,
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

import { createHmac, randomBytes } from "node:crypto";
import { startFakeServer, type FakeReply, type ReceivedRequest } from "./http";

/**
 * Stripe's API as Checkout uses it (POST /v1/checkout/sessions form-encoded, GET /v1/checkout/sessions/{id}
 * with `expand[]`, GET /v1/checkout/sessions?payment_intent=…, POST /v1/checkout/sessions/{id}/expire,
 * POST /v1/refunds), with the Checkout Session, PaymentIntent, Charge, Refund, Dispute, list, event and error
 * objects of its API reference; idempotency as Stripe keeps it (the first answer to a key is replayed, another
 * request under the same key is refused); and webhook events signed as Stripe signs them (Stripe-Signature
 * `t=…,v1=…`, the HMAC-SHA256 of `{t}.{body}`). The official SDK talks to it unchanged.
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
  currency: string;
  expires_at: number;
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
  latest_charge: string | null;
  status: "processing" | "requires_payment_method" | "succeeded" | "canceled";
}

export interface Charge extends Json {
  id: string;
  object: "charge";
  amount: number;
  amount_refunded: number;
  currency: string;
  disputed: boolean;
  payment_intent: string;
  refunded: boolean;
  status: "succeeded" | "pending" | "failed";
}

export interface Refund extends Json {
  id: string;
  object: "refund";
  amount: number;
  charge: string;
  payment_intent: string;
  status: "succeeded" | "pending" | "requires_action" | "failed" | "canceled";
}

export interface Dispute extends Json {
  id: string;
  object: "dispute";
  amount: number;
  charge: string;
  payment_intent: string;
  status: "needs_response" | "under_review" | "won" | "lost";
}

/** What became of a session's payment on Stripe's page: paid, still processing (a bank debit), failed. */
export type SessionOutcome = "paid" | "processing" | "failed";

/** A PaymentIntent's last_payment_error after a bank debit failed. */
const DEBIT_FAILED = {
  code: "payment_intent_payment_attempt_failed",
  message: "The customer's bank account could not be debited.",
  type: "invalid_request_error",
};

/** Stripe takes a session's expires_at from 30 minutes to 24 hours after its creation. */
const MIN_SESSION_SECONDS = 30 * 60;
const MAX_SESSION_SECONDS = 24 * 3600;

const newId = (prefix: string) => `${prefix}_${randomBytes(18).toString("base64url").replace(/[-_]/g, "x")}`;
const now = () => Math.floor(Date.now() / 1000);
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Stripe's error body. */
const stripeError = (status: number, error: Json): FakeReply => ({
  status,
  body: { error: { request_log_url: `https://dashboard.stripe.com/test/logs/${newId("req")}`, ...error } },
});

const invalidRequest = (message: string, extra: Json = {}) =>
  stripeError(400, { message, type: "invalid_request_error", ...extra });

const noSuch = (object: string, id: string, param: string, status = 404) =>
  stripeError(status, {
    code: "resource_missing",
    doc_url: "https://stripe.com/docs/error-codes/resource-missing",
    message: `No such ${object}: '${id}'`,
    param,
    type: "invalid_request_error",
  });

const missingParam = (param: string) =>
  invalidRequest(`Missing required param: ${param}.`, {
    code: "parameter_missing",
    doc_url: "https://stripe.com/docs/error-codes/parameter-missing",
    param,
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
  const charges = new Map<string, Charge>();
  const refunds = new Map<string, Refund>();
  const disputes = new Map<string, Dispute>();
  /** Each session's create parameters, as the store sent them. */
  const params = new Map<string, Json>();
  /** Idempotency-Key → the request that first used it and the answer it got, replayed for the same request. */
  const idempotent = new Map<string, { path: string; text: string; reply: FakeReply }>();
  let origin = "";

  /** A session as it is now: an open one past its expires_at has expired, as Stripe expires it. */
  function current(session: CheckoutSession) {
    if (session.status === "open" && now() >= session.expires_at)
      Object.assign(session, { status: "expired", url: null });
    return session;
  }

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
    const created = now();
    let expiresAt = created + MAX_SESSION_SECONDS;
    if (asked.expires_at !== undefined) {
      expiresAt = Number(asked.expires_at);
      if (!/^\d+$/.test(String(asked.expires_at)))
        return invalidRequest("Invalid integer: expires_at", {
          code: "parameter_invalid_integer",
          param: "expires_at",
        });
      if (expiresAt < created + MIN_SESSION_SECONDS)
        return invalidRequest(
          "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
          { param: "expires_at" },
        );
      if (expiresAt > created + MAX_SESSION_SECONDS)
        return invalidRequest(
          "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.",
          { param: "expires_at" },
        );
    }
    const id = newId("cs_test");
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
      expires_at: expiresAt,
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

  /** The session as the API shows it, its PaymentIntent (and that one's latest charge) expanded when asked. */
  function shown(session: CheckoutSession, expand: unknown[] = []): Json {
    const intent = intents.get(session.payment_intent ?? "");
    if (
      !intent ||
      !expand.some((path) => path === "payment_intent" || path === "payment_intent.latest_charge")
    )
      return session;
    const charge = expand.includes("payment_intent.latest_charge") && charges.get(intent.latest_charge ?? "");
    return { ...session, payment_intent: charge ? { ...intent, latest_charge: charge } : intent };
  }

  const expandOf = (request: ReceivedRequest) => {
    const { expand } = parseStripeForm(request.query.toString());
    return Array.isArray(expand) ? (expand as unknown[]) : [];
  };

  /** GET /v1/checkout/sessions: newest first, filtered by payment_intent, `limit` of them (10 by default). */
  function listSessions(request: ReceivedRequest): FakeReply {
    const query = parseStripeForm(request.query.toString());
    const limit = query.limit === undefined ? 10 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return invalidRequest("This value must be greater than or equal to 1 and less than or equal to 100.", {
        param: "limit",
      });
    const matching = [...sessions.values()]
      .map(current)
      .filter(
        (session) => query.payment_intent === undefined || session.payment_intent === query.payment_intent,
      )
      .reverse();
    const expand = expandOf(request)
      .filter((path): path is string => typeof path === "string" && path.startsWith("data."))
      .map((path) => path.slice("data.".length));
    return {
      status: 200,
      body: {
        object: "list",
        data: matching.slice(0, limit).map((session) => shown(session, expand)),
        has_more: matching.length > limit,
        url: "/v1/checkout/sessions",
      },
    };
  }

  function expireSession(id: string): FakeReply {
    const session = sessions.get(id);
    if (!session) return noSuch("checkout.session", id, "session");
    if (current(session).status !== "open")
      return invalidRequest(
        `This Checkout Session is ${session.status}: only a Checkout Session whose status is open can be expired.`,
      );
    Object.assign(session, { status: "expired", url: null });
    return { status: 200, body: session };
  }

  /** A refund of a charge, from the API or the dashboard: at most what is left of it. */
  function refundCharge(charge: Charge, amount: number): FakeReply {
    const left = charge.amount - charge.amount_refunded;
    if (left <= 0)
      return invalidRequest(`Charge ${charge.id} has already been refunded.`, {
        code: "charge_already_refunded",
        doc_url: "https://stripe.com/docs/error-codes/charge-already-refunded",
      });
    if (amount > left)
      return invalidRequest(
        `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(left)})`,
        { param: "amount" },
      );
    const refund: Refund = {
      id: newId("re"),
      object: "refund",
      amount,
      balance_transaction: newId("txn"),
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      destination_details: { card: { type: "refund" }, type: "card" },
      metadata: {},
      payment_intent: charge.payment_intent,
      reason: null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: "succeeded",
      transfer_reversal: null,
    };
    refunds.set(refund.id, refund);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return { status: 200, body: refund };
  }

  /** POST /v1/refunds for a PaymentIntent: its latest charge, if it succeeded, gives back `amount` (or all). */
  function createRefund(request: ReceivedRequest): FakeReply {
    const asked = parseStripeForm(request.text);
    if (typeof asked.payment_intent !== "string" && typeof asked.charge !== "string")
      return missingParam("charge or payment_intent");
    const intentId = typeof asked.payment_intent === "string" ? asked.payment_intent : undefined;
    const intent = intentId === undefined ? undefined : intents.get(intentId);
    if (intentId !== undefined && !intent) return noSuch("payment_intent", intentId, "payment_intent", 400);
    const chargeId = intent ? intent.latest_charge : (asked.charge as string);
    const charge = charges.get(chargeId ?? "");
    if (!charge && !intent) return noSuch("charge", String(chargeId), "charge", 400);
    if (!charge || charge.status !== "succeeded")
      return invalidRequest(
        `This PaymentIntent (${intent?.id ?? charge?.payment_intent}) does not have a successful charge to refund.`,
        { param: "payment_intent" },
      );
    const amount = asked.amount === undefined ? charge.amount - charge.amount_refunded : Number(asked.amount);
    if (!Number.isInteger(amount) || amount < 1)
      return invalidRequest("Invalid positive integer", {
        code: "parameter_invalid_integer",
        doc_url: "https://stripe.com/docs/error-codes/parameter-invalid-integer",
        param: "amount",
      });
    return refundCharge(charge, amount);
  }

  function answer(request: ReceivedRequest): FakeReply {
    if (request.method === "POST" && request.path === "/v1/checkout/sessions") return createSession(request);
    if (request.method === "GET" && request.path === "/v1/checkout/sessions") return listSessions(request);
    if (request.method === "POST" && request.path === "/v1/refunds") return createRefund(request);
    const expirePath = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(request.path);
    if (request.method === "POST" && expirePath) return expireSession(decodeURIComponent(expirePath[1]!));
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    if (request.method === "GET" && sessionPath) {
      const id = decodeURIComponent(sessionPath[1]!);
      const session = sessions.get(id);
      if (!session) return noSuch("checkout.session", id, "session");
      return { status: 200, body: shown(current(session), expandOf(request)) };
    }
    return stripeError(404, {
      message: `Unrecognized request URL (${request.method}: ${request.path}).`,
      type: "invalid_request_error",
    });
  }

  const server = await startFakeServer((request) => {
    if (request.headers.authorization !== `Bearer ${STRIPE_SECRET_KEY}`)
      return stripeError(401, {
        message: "Invalid API Key provided: sk_test_****",
        type: "invalid_request_error",
      });
    const key = request.method === "POST" ? request.headers["idempotency-key"] : undefined;
    if (typeof key !== "string") return answer(request);
    const first = idempotent.get(key);
    if (first && (first.path !== request.path || first.text !== request.text))
      return stripeError(400, {
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        type: "idempotency_error",
      });
    if (first) return { ...first.reply, headers: { "idempotent-replayed": "true" } };
    const reply = answer(request);
    idempotent.set(key, { path: request.path, text: request.text, reply });
    return reply;
  });
  origin = server.url;

  const sessionOf = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`no Checkout Session ${id}`);
    return current(session);
  };

  /** The charge of a session's payment. */
  const chargeOf = (id: string) => {
    const intent = intents.get(sessionOf(id).payment_intent ?? "");
    const charge = charges.get(intent?.latest_charge ?? "");
    if (!charge) throw new Error(`session ${id} has no charge`);
    return charge;
  };

  const disputeOf = (id: string) => {
    const charge = chargeOf(id);
    const dispute = [...disputes.values()].findLast((candidate) => candidate.charge === charge.id);
    if (!dispute) throw new Error(`session ${id}'s charge has no dispute`);
    return dispute;
  };

  /** An event's object: the session, or its charge for charge.*, or the charge's dispute for charge.dispute.*. */
  function eventObject(type: string, id: string): Json {
    const session = sessions.get(id);
    if (!type.startsWith("charge.")) return session ? shown(session) : { id, object: "checkout.session" };
    if (!session) {
      const charge = { id: newId("ch"), object: "charge", payment_intent: newId("pi") };
      return type.startsWith("charge.dispute.")
        ? { id: newId("dp"), object: "dispute", charge: charge.id, payment_intent: charge.payment_intent }
        : charge;
    }
    return type.startsWith("charge.dispute.") ? disputeOf(id) : chargeOf(id);
  }

  return {
    ...server,
    sessions,
    intents,
    charges,
    refunds,
    /** What the store sent to make a session, decoded (every value as text). */
    asked(id: string): Json {
      const asked = params.get(id);
      if (!asked) throw new Error(`no Checkout Session ${id}`);
      return asked;
    },

    /**
     * The shopper completes a session on Stripe's page. `amountTotal` (cents) makes Stripe's record of it
     * another amount than the store asked for. An expired session can't be paid: this throws.
     */
    complete(id: string, outcome: SessionOutcome = "paid", { amountTotal }: { amountTotal?: number } = {}) {
      const session = sessionOf(id);
      if (session.status === "expired") throw new Error(`Checkout Session ${id} has expired`);
      if (amountTotal !== undefined) session.amount_total = amountTotal;
      const intentId = newId("pi");
      const charge: Charge = {
        id: newId("ch"),
        object: "charge",
        amount: session.amount_total,
        amount_captured: outcome === "failed" ? 0 : session.amount_total,
        amount_refunded: 0,
        balance_transaction: outcome === "paid" ? newId("txn") : null,
        captured: outcome !== "failed",
        created: now(),
        currency: "usd",
        disputed: false,
        failure_code: outcome === "failed" ? "debit_not_authorized" : null,
        failure_message: outcome === "failed" ? DEBIT_FAILED.message : null,
        livemode: false,
        metadata: {},
        paid: outcome === "paid",
        payment_intent: intentId,
        refunded: false,
        status: { paid: "succeeded", processing: "pending", failed: "failed" }[outcome] as Charge["status"],
      };
      charges.set(charge.id, charge);
      const intent: PaymentIntent = {
        id: intentId,
        object: "payment_intent",
        amount: session.amount_total,
        amount_received: outcome === "paid" ? session.amount_total : 0,
        created: now(),
        currency: "usd",
        description: (params.get(id)?.payment_intent_data as Json | undefined)?.description ?? null,
        last_payment_error: outcome === "failed" ? DEBIT_FAILED : null,
        latest_charge: charge.id,
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
      Object.assign(chargeOf(id), {
        status: outcome === "paid" ? "succeeded" : "failed",
        paid: outcome === "paid",
      });
      session.payment_status = outcome === "paid" ? "paid" : "unpaid";
    },

    /** The session times out unpaid. */
    expire(id: string) {
      Object.assign(sessionOf(id), { status: "expired", url: null });
    },

    /** Whether the session's page still takes a payment (not once expired or paid). */
    isOpen(id: string) {
      return sessionOf(id).status === "open";
    },

    /** The owner refunds part (or all, without `amountCents`) of a session's payment from Stripe's dashboard. */
    refundInDashboard(id: string, amountCents?: number) {
      const charge = chargeOf(id);
      const reply = refundCharge(charge, amountCents ?? charge.amount - charge.amount_refunded);
      if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
      return reply.body as Refund;
    },

    /** The buyer's bank disputes a session's payment (a chargeback), or the dispute closes, won or lost. */
    dispute(id: string, status: Dispute["status"] = "needs_response") {
      const charge = chargeOf(id);
      charge.disputed = true;
      const dispute: Dispute = {
        id: newId("dp"),
        object: "dispute",
        amount: charge.amount,
        balance_transactions: [],
        charge: charge.id,
        created: now(),
        currency: charge.currency,
        evidence_details: {
          due_by: now() + 7 * 86_400,
          has_evidence: false,
          past_due: false,
          submission_count: 0,
        },
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        payment_intent: charge.payment_intent,
        reason: "fraudulent",
        status,
      };
      disputes.set(dispute.id, dispute);
      return dispute;
    },

    closeDispute(id: string, status: "won" | "lost") {
      disputeOf(id).status = status;
    },

    /** The refunds Stripe holds for a session's payment, oldest first. */
    refundsOf(id: string): Refund[] {
      const intent = sessionOf(id).payment_intent;
      return [...refunds.values()].filter((refund) => refund.payment_intent === intent);
    },

    /** Where Checkout sends the shopper back: the success URL with the session id filled in. */
    returnUrl(id: string): URL {
      return new URL(sessionOf(id).success_url.replace("{CHECKOUT_SESSION_ID}", id));
    },

    /**
     * The webhook event Stripe sends (pretty-printed JSON, as Stripe sends it), signed with `secret` at
     * `timestamp` (Unix seconds): about session `id` for checkout.session.*, about its charge for charge.*
     * and about the charge's latest dispute for charge.dispute.*. An unknown `id` makes an event about a
     * session, charge or dispute that isn't here.
     */
    event(type: string, id: string, signing: { secret?: string; timestamp?: number } = {}) {
      const payload = JSON.stringify(
        {
          id: newId("evt"),
          object: "event",
          api_version: API_VERSION,
          created: signing.timestamp ?? now(),
          data: { object: eventObject(type, id) },
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

import { createHmac, randomUUID } from "node:crypto";
import { startFakeServer, type FakeReply, type ReceivedRequest } from "./http";

/**
 * Mercado Pago's API as Checkout Pro uses it (POST /checkout/preferences, PUT /checkout/preferences/{id},
 * GET /v1/payments/{id}, GET /v1/payments/search, POST /v1/payments/{id}/refunds), with the objects and error
 * bodies its API reference shows; X-Idempotency-Key as Mercado Pago keeps it (the same key again makes
 * nothing new); and its Webhooks notifications signed as Mercado Pago signs them (x-signature `ts=…,v1=…` over
 * `id:{data.id};request-id:{x-request-id};ts:{ts};`).
 */
export const MERCADOPAGO_ACCESS_TOKEN = "APP_USR-4815162342-fake-access-token";
export const MERCADOPAGO_WEBHOOK_SECRET = "fake-mercadopago-webhook-secret";

const COLLECTOR_ID = 2_079_614_828;

export type MercadoPagoStatus =
  | "approved"
  | "pending"
  | "in_process"
  | "authorized"
  | "rejected"
  | "cancelled"
  | "refunded"
  | "charged_back"
  | "in_mediation";

const STATUS_DETAILS: Record<MercadoPagoStatus, string> = {
  approved: "accredited",
  pending: "pending_waiting_payment",
  in_process: "pending_contingency",
  authorized: "pending_capture",
  rejected: "cc_rejected_insufficient_amount",
  cancelled: "expired",
  refunded: "refunded",
  charged_back: "settled",
  in_mediation: "pending_mediation",
};

export interface PreferenceItem {
  id?: string;
  title: string;
  quantity: number;
  unit_price: number;
  currency_id: string;
}

export interface Preference {
  id: string;
  items: PreferenceItem[];
  payer: { email?: string };
  external_reference: string;
  back_urls: { success?: string; failure?: string; pending?: string };
  auto_return?: string;
  notification_url?: string;
  init_point: string;
  sandbox_init_point: string;
  expires: boolean;
  expiration_date_from?: string | null;
  expiration_date_to?: string | null;
  [field: string]: unknown;
}

export interface Payment {
  id: number;
  status: MercadoPagoStatus;
  status_detail: string;
  transaction_amount: number;
  transaction_amount_refunded: number;
  currency_id: string;
  external_reference: string | null;
  refunds: Refund[];
  [field: string]: unknown;
}

export interface Refund {
  id: number;
  payment_id: number;
  amount: number;
  status: "approved" | "in_process" | "rejected";
  [field: string]: unknown;
}

/** Mercado Pago's dates as its API writes them: milliseconds and the offset (`2017-02-01T12:00:00.000-04:00`). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?(Z|[+-]\d{2}:\d{2})$/;
const validDate = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === "string" && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)));

/** A preference can be paid from expiration_date_from to expiration_date_to when it `expires`. */
const isPayable = (preference: Preference, at = Date.now()) =>
  !preference.expires ||
  ((!preference.expiration_date_from || Date.parse(preference.expiration_date_from) <= at) &&
    (!preference.expiration_date_to || at < Date.parse(preference.expiration_date_to)));

const cents = (amount: number) => Math.round(amount * 100);

/** Mercado Pago's error body: `{message, error, status, cause}`. */
const failure = (status: number, error: string, message: string, cause: unknown[] = []): FakeReply => ({
  status,
  body: { message, error, status, cause },
});

export async function startFakeMercadoPago() {
  const preferences = new Map<string, Preference>();
  const payments = new Map<number, Payment>();
  /** X-Idempotency-Key → the preference it made: the same key again gets the same preference. */
  const idempotent = new Map<string, string>();
  /** X-Idempotency-Key → the refund it made: the same key again gets the same refund, and no second one. */
  const idempotentRefunds = new Map<string, Refund>();
  let nextPaymentId = 1_319_000_001;
  let nextRefundId = 1_242_469_925;
  let nextMerchantOrderId = 26_262_399_173;
  let origin = "";

  function createPreference(request: ReceivedRequest): FakeReply {
    const key = request.headers["x-idempotency-key"];
    const replayed = typeof key === "string" ? idempotent.get(key) : undefined;
    if (replayed) return { status: 201, body: preferences.get(replayed) };
    let body: Partial<Preference>;
    try {
      body = JSON.parse(request.text) as Partial<Preference>;
    } catch {
      return failure(400, "bad_request", "Invalid JSON body");
    }
    const items = body.items;
    if (!Array.isArray(items) || items.length === 0)
      return failure(400, "invalid_items", "items needed", [
        { code: "invalid_items", description: "items needed" },
      ]);
    for (const item of items) {
      if (typeof item.title !== "string" || !item.title) return failure(400, "invalid_items", "title needed");
      if (!Number.isInteger(item.quantity) || item.quantity < 1)
        return failure(400, "invalid_items", "quantity must be a positive integer");
      if (typeof item.unit_price !== "number" || item.unit_price < 0)
        return failure(400, "invalid_items", "unit_price invalid");
    }
    const invalid = invalidExpiration(body);
    if (invalid) return invalid;
    const id = `${COLLECTOR_ID}-${randomUUID()}`;
    const preference: Preference = {
      additional_info: "",
      auto_return: body.auto_return,
      back_urls: body.back_urls ?? {},
      binary_mode: false,
      client_id: "4815162342",
      collector_id: COLLECTOR_ID,
      date_created: new Date().toISOString(),
      expires: body.expires === true,
      expiration_date_from: body.expiration_date_from ?? null,
      expiration_date_to: body.expiration_date_to ?? null,
      external_reference: body.external_reference ?? "",
      id,
      init_point: `${origin}/checkout/v1/redirect?pref_id=${id}`,
      items,
      marketplace: "NONE",
      marketplace_fee: 0,
      notification_url: body.notification_url,
      operation_type: "regular_payment",
      payer: body.payer ?? {},
      sandbox_init_point: `${origin}/checkout/v1/redirect?pref_id=${id}&sandbox=true`,
      site_id: "MLA",
    };
    preferences.set(id, preference);
    if (typeof key === "string") idempotent.set(key, id);
    return { status: 201, body: preference };
  }

  /** The validity window's fields, when given: `expires` a boolean, the dates ISO 8601 with an offset. */
  function invalidExpiration(body: Partial<Preference>): FakeReply | null {
    if (body.expires !== undefined && typeof body.expires !== "boolean")
      return failure(400, "invalid_expires", "expires must be boolean");
    for (const field of ["expiration_date_from", "expiration_date_to"] as const)
      if (!validDate(body[field]))
        return failure(
          400,
          `invalid_${field}`,
          `${field} invalid format, must be yyyy-MM-dd'T'HH:mm:ss.SSSZ`,
        );
    return null;
  }

  /** PUT /checkout/preferences/{id}: the fields sent replace the preference's own. */
  function updatePreference(id: string, request: ReceivedRequest): FakeReply {
    const preference = preferences.get(id);
    if (!preference) return failure(404, "not_found", `Preference ${id} not found`);
    let body: Partial<Preference>;
    try {
      body = JSON.parse(request.text) as Partial<Preference>;
    } catch {
      return failure(400, "bad_request", "Invalid JSON body");
    }
    if (typeof body !== "object" || body === null || Array.isArray(body))
      return failure(400, "bad_request", "Invalid JSON body");
    const invalid = invalidExpiration(body);
    if (invalid) return invalid;
    const {
      id: _id,
      init_point: _initPoint,
      sandbox_init_point: _sandbox,
      collector_id: _collector,
      ...changes
    } = body;
    Object.assign(preference, changes, { last_updated: new Date().toISOString() });
    return { status: 200, body: preference };
  }

  /**
   * POST /v1/payments/{id}/refunds: `amount` (dollars) or, with no body, all that is left. The same
   * X-Idempotency-Key again answers the refund it made; a refund above what is left is refused.
   */
  function createRefund(paymentId: number, request: ReceivedRequest): FakeReply {
    const key = request.headers["x-idempotency-key"];
    if (typeof key !== "string" || !key)
      return failure(400, "bad_request", "Header X-Idempotency-Key can't be null", [
        { code: 4292, description: "Header-X-Idempotency-Key-can't-be-null", data: null },
      ]);
    const replayed = idempotentRefunds.get(key);
    if (replayed) return { status: 201, body: replayed };
    const payment = payments.get(paymentId);
    if (!payment)
      return failure(404, "not_found", "Payment not found", [
        { code: 2000, description: "Payment not found", data: null },
      ]);
    let body: { amount?: unknown } = {};
    if (request.text.trim()) {
      try {
        body = JSON.parse(request.text) as { amount?: unknown };
      } catch {
        return failure(400, "bad_request", "Invalid JSON body");
      }
    }
    const left = cents(payment.transaction_amount) - cents(payment.transaction_amount_refunded);
    const amount = body.amount === undefined ? left / 100 : body.amount;
    if (typeof amount !== "number")
      return failure(400, "bad_request", "amount attribute must be numeric", [
        { code: 4041, description: "amount-attribute-must-be-numeric", data: null },
      ]);
    if (amount <= 0)
      return failure(400, "bad_request", "amount attribute must be positive", [
        { code: 4040, description: "amount-attribute-must-be-positive", data: null },
      ]);
    if (payment.status !== "approved")
      return failure(400, "bad_request", "The action requested is not valid for the current payment state", [
        {
          code: 2063,
          description: "The-action-requested-is-not-valid-for-the-current-payment-state",
          data: null,
        },
      ]);
    if (cents(amount) > left)
      return failure(
        400,
        "bad_request",
        "Invalid refund amount: it is greater than the payment's available amount",
      );
    const refund = refundPayment(payment, amount);
    idempotentRefunds.set(key, refund);
    return { status: 201, body: refund };
  }

  /** A refund of a payment, from the API or the seller's account: fully refunded, its status is `refunded`. */
  function refundPayment(payment: Payment, amount: number): Refund {
    const refund: Refund = {
      id: nextRefundId++,
      payment_id: payment.id,
      amount,
      metadata: {},
      source: { id: String(COLLECTOR_ID), name: "Voltio Test", type: "collector" },
      date_created: new Date().toISOString(),
      unique_sequence_number: null,
      refund_mode: "standard",
      adjustment_amount: 0,
      status: "approved",
      reason: null,
      labels: [],
      amount_refunded_to_payer: amount,
      partition_details: [],
    };
    payment.refunds.push(refund);
    payment.transaction_amount_refunded = (cents(payment.transaction_amount_refunded) + cents(amount)) / 100;
    const whole = cents(payment.transaction_amount_refunded) >= cents(payment.transaction_amount);
    Object.assign(payment, {
      status: whole ? "refunded" : "approved",
      status_detail: whole ? "refunded" : "partially_refunded",
      date_last_updated: new Date().toISOString(),
    });
    return refund;
  }

  /** GET /v1/payments/search: the payments matching the filters, sorted, a page of `limit` from `offset`. */
  function searchPayments(query: URLSearchParams): FakeReply {
    const sort = query.get("sort") ?? "date_created";
    const criteria = query.get("criteria") ?? "desc";
    if (!["date_approved", "date_created", "date_last_updated", "id", "money_release_date"].includes(sort))
      return failure(400, "bad_request", "Invalid sort value.", [
        { code: 1003, description: "Invalid sort value." },
      ]);
    if (criteria !== "asc" && criteria !== "desc")
      return failure(400, "bad_request", "Invalid criteria value.", [
        { code: 1004, description: "Invalid criteria value." },
      ]);
    const limit = Number(query.get("limit") ?? 30);
    const offset = Number(query.get("offset") ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000 || !Number.isInteger(offset) || offset < 0)
      return failure(400, "bad_request", "Params Error.", [{ code: 1, description: "Params Error." }]);
    const filters = ["external_reference", "status", "preference_id"].flatMap((field) => {
      const value = query.get(field);
      return value === null ? [] : [[field, value] as const];
    });
    const key = (payment: Payment) =>
      sort === "id" ? payment.id : Date.parse(String(payment[sort] ?? "")) || 0;
    const matching = [...payments.values()]
      .filter((payment) => filters.every(([field, value]) => String(payment[field]) === value))
      // Payments made in the same millisecond keep the order they were made in.
      .sort((a, b) => key(a) - key(b) || a.id - b.id);
    if (criteria === "desc") matching.reverse();
    return {
      status: 200,
      body: {
        paging: { total: matching.length, limit, offset },
        results: matching.slice(offset, offset + limit),
      },
    };
  }

  const server = await startFakeServer((request) => {
    if (request.headers.authorization !== `Bearer ${MERCADOPAGO_ACCESS_TOKEN}`)
      return failure(401, "unauthorized", "invalid access token");
    if (request.method === "POST" && request.path === "/checkout/preferences")
      return createPreference(request);
    const preferencePath = /^\/checkout\/preferences\/([^/]+)$/.exec(request.path);
    if (request.method === "PUT" && preferencePath)
      return updatePreference(decodeURIComponent(preferencePath[1]!), request);
    if (request.method === "GET" && request.path === "/v1/payments/search")
      return searchPayments(request.query);
    const refundsPath = /^\/v1\/payments\/(\d+)\/refunds$/.exec(request.path);
    if (request.method === "POST" && refundsPath) return createRefund(Number(refundsPath[1]), request);
    const paymentPath = /^\/v1\/payments\/(\d+)$/.exec(request.path);
    if (request.method === "GET" && paymentPath) {
      const payment = payments.get(Number(paymentPath[1]));
      return payment
        ? { status: 200, body: payment }
        : failure(404, "not_found", "Payment not found", [
            { code: 2000, description: "Payment not found", data: null },
          ]);
    }
    return failure(404, "not_found", `resource not found: ${request.method} ${request.path}`);
  });
  origin = server.url;

  const sumOf = (preference: Preference) =>
    Math.round(preference.items.reduce((sum, item) => sum + item.quantity * item.unit_price * 100, 0)) / 100;

  return {
    ...server,
    preferences,
    payments,

    /**
     * The shopper pays a preference on Mercado Pago's page: a payment for its external reference, of its
     * items' sum unless `amount` says another (dollars). Outside the preference's validity (it expired, or
     * was closed) Checkout Pro takes no payment: this throws.
     */
    pay(
      preferenceId: string,
      { status = "approved", amount }: { status?: MercadoPagoStatus; amount?: number } = {},
    ) {
      const preference = preferences.get(preferenceId);
      if (!preference) throw new Error(`no preference ${preferenceId}`);
      if (!isPayable(preference)) throw new Error(`preference ${preferenceId} is not valid now`);
      const transactionAmount = amount ?? sumOf(preference);
      const now = new Date().toISOString();
      const payment: Payment = {
        id: nextPaymentId++,
        additional_info: {
          items: preference.items.map((item) => ({ ...item, quantity: String(item.quantity) })),
        },
        binary_mode: false,
        captured: true,
        collector_id: COLLECTOR_ID,
        currency_id: preference.items[0]?.currency_id ?? "USD",
        date_approved: status === "approved" ? now : null,
        date_created: now,
        date_last_updated: now,
        description: preference.items[0]?.title ?? "",
        external_reference: preference.external_reference || null,
        installments: 1,
        issuer_id: "310",
        live_mode: false,
        metadata: {},
        money_release_date: null,
        notification_url: preference.notification_url ?? null,
        operation_type: "regular_payment",
        order: { id: String(nextMerchantOrderId++), type: "mercadopago" },
        refunds: [],
        payer: { email: preference.payer.email ?? null, id: "1234567890", type: null },
        payment_method_id: "visa",
        payment_type_id: "credit_card",
        preference_id: preference.id,
        processing_mode: "aggregator",
        status,
        status_detail: STATUS_DETAILS[status],
        transaction_amount: transactionAmount,
        transaction_amount_refunded: 0,
        transaction_details: {
          installment_amount: transactionAmount,
          net_received_amount: transactionAmount,
          overpaid_amount: 0,
          total_paid_amount: transactionAmount,
        },
      };
      payments.set(payment.id, payment);
      return payment;
    },

    /** Mercado Pago's books change: a pending payment is approved, an approved one charged back… */
    setStatus(paymentId: number, status: MercadoPagoStatus) {
      const payment = payments.get(paymentId);
      if (!payment) throw new Error(`no payment ${paymentId}`);
      Object.assign(payment, {
        status,
        status_detail: STATUS_DETAILS[status],
        date_approved: status === "approved" ? new Date().toISOString() : payment.date_approved,
        date_last_updated: new Date().toISOString(),
      });
      // Refunded in full, as a refund from the seller's account would leave it.
      if (status === "refunded") payment.transaction_amount_refunded = payment.transaction_amount;
    },

    /** The seller refunds part (dollars) or all of an approved payment from their Mercado Pago account. */
    refundFromAccount(paymentId: number, amount?: number) {
      const payment = payments.get(paymentId);
      if (!payment || payment.status !== "approved") throw new Error(`no approved payment ${paymentId}`);
      return refundPayment(
        payment,
        amount ?? (cents(payment.transaction_amount) - cents(payment.transaction_amount_refunded)) / 100,
      );
    },

    /** Whether a preference takes payments now (it may have expired, or been closed by the store). */
    isPayable(preferenceId: string) {
      const preference = preferences.get(preferenceId);
      if (!preference) throw new Error(`no preference ${preferenceId}`);
      return isPayable(preference);
    },

    /** Where Checkout Pro sends the shopper back (auto_return), with the query it adds. */
    returnUrl(payment: Payment): URL {
      const preference = preferences.get(payment.preference_id as string)!;
      const page =
        payment.status === "approved"
          ? preference.back_urls.success
          : payment.status === "rejected" || payment.status === "cancelled"
            ? preference.back_urls.failure
            : preference.back_urls.pending;
      const url = new URL(page!);
      for (const [key, value] of Object.entries({
        collection_id: String(payment.id),
        collection_status: payment.status,
        payment_id: String(payment.id),
        status: payment.status,
        external_reference: payment.external_reference ?? "null",
        payment_type: "credit_card",
        merchant_order_id: (payment.order as { id: string }).id,
        preference_id: preference.id,
        site_id: "MLA",
        processing_mode: "aggregator",
        merchant_account_id: "null",
      }))
        url.searchParams.set(key, value);
      return url;
    },

    /**
     * The Webhooks notification Mercado Pago sends about a payment to the preference's notification_url
     * (POST, `data.id` and `type` added to its query), signed with `secret` at `signedAt` (Unix seconds, or
     * milliseconds as Mercado Pago's notifications send it).
     */
    notification(
      paymentId: number | string,
      {
        secret = MERCADOPAGO_WEBHOOK_SECRET,
        signedAt = Math.floor(Date.now() / 1000),
        requestId = randomUUID(),
      }: { secret?: string; signedAt?: number; requestId?: string } = {},
    ) {
      const notificationUrl = payments.get(Number(paymentId))?.notification_url;
      const url = new URL(
        typeof notificationUrl === "string"
          ? notificationUrl
          : "https://store.invalid/api/mercadopago/webhook",
      );
      url.searchParams.set("data.id", String(paymentId));
      url.searchParams.set("type", "payment");
      const ts = String(signedAt);
      const v1 = createHmac("sha256", secret)
        .update(`id:${String(paymentId).toLowerCase()};request-id:${requestId};ts:${ts};`)
        .digest("hex");
      return {
        method: "POST" as const,
        url: `${url.pathname}${url.search}`,
        headers: {
          "content-type": "application/json",
          "x-request-id": requestId,
          "x-signature": `ts=${ts},v1=${v1}`,
        },
        payload: JSON.stringify({
          action: "payment.updated",
          api_version: "v1",
          data: { id: String(paymentId) },
          date_created: new Date().toISOString(),
          id: Math.floor(Math.random() * 1e11),
          live_mode: false,
          type: "payment",
          user_id: String(COLLECTOR_ID),
        }),
      };
    },
  };
}

export type FakeMercadoPago = Awaited<ReturnType<typeof startFakeMercadoPago>>;

import { createHmac, randomUUID } from "node:crypto";
import { startFakeServer, type FakeReply, type ReceivedRequest } from "./http";

/**
 * Mercado Pago's API as Checkout Pro uses it (POST /checkout/preferences, GET /v1/payments/{id}), with the
 * objects and error bodies its API reference shows, and its Webhooks notifications signed as Mercado Pago
 * signs them (x-signature `ts=…,v1=…` over `id:{data.id};request-id:{x-request-id};ts:{ts};`).
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
  | "charged_back";

const STATUS_DETAILS: Record<MercadoPagoStatus, string> = {
  approved: "accredited",
  pending: "pending_waiting_payment",
  in_process: "pending_contingency",
  authorized: "pending_capture",
  rejected: "cc_rejected_insufficient_amount",
  cancelled: "expired",
  refunded: "refunded",
  charged_back: "settled",
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
  [field: string]: unknown;
}

export interface Payment {
  id: number;
  status: MercadoPagoStatus;
  status_detail: string;
  transaction_amount: number;
  external_reference: string | null;
  [field: string]: unknown;
}

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
  let nextPaymentId = 1_319_000_001;
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
    const id = `${COLLECTOR_ID}-${randomUUID()}`;
    const preference: Preference = {
      additional_info: "",
      auto_return: body.auto_return,
      back_urls: body.back_urls ?? {},
      binary_mode: false,
      client_id: "4815162342",
      collector_id: COLLECTOR_ID,
      date_created: new Date().toISOString(),
      expires: false,
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

  const server = await startFakeServer((request) => {
    if (request.headers.authorization !== `Bearer ${MERCADOPAGO_ACCESS_TOKEN}`)
      return failure(401, "unauthorized", "invalid access token");
    if (request.method === "POST" && request.path === "/checkout/preferences")
      return createPreference(request);
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
     * items' sum unless `amount` says another (dollars).
     */
    pay(
      preferenceId: string,
      { status = "approved", amount }: { status?: MercadoPagoStatus; amount?: number } = {},
    ) {
      const preference = preferences.get(preferenceId);
      if (!preference) throw new Error(`no preference ${preferenceId}`);
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
        currency_id: "USD",
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

    /** Mercado Pago's books change: a pending payment is approved, an approved one refunded… */
    setStatus(paymentId: number, status: MercadoPagoStatus) {
      const payment = payments.get(paymentId);
      if (!payment) throw new Error(`no payment ${paymentId}`);
      Object.assign(payment, { status, status_detail: STATUS_DETAILS[status] });
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

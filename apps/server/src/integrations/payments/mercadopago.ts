import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { toCents } from "@voltio/domain/money";
import { InvalidInput, UpstreamUnavailable } from "../../errors";
import {
  InvalidWebhookSignature,
  WEBHOOK_TOLERANCE_SECONDS,
  signatureParts,
  type PaymentProvider,
  type ProviderPayment,
  type ProviderRefund,
  type WebhookRequest,
} from "./provider";

/**
 * Mercado Pago Checkout Pro through its documented REST API, with fetch: its official SDK can't be pointed
 * at another address, which the tests' fake needs. A checkout is a preference; a payment is looked up by id,
 * from the return page's query or from a Webhooks notification signed with x-signature.
 */
export interface MercadoPagoSettings {
  accessToken: string;
  webhookSecret: string;
  apiUrl: string;
  /** The store's POST /api/mercadopago/webhook, as Mercado Pago must call it; none for a store it can't reach. */
  notificationUrl?: string;
}

const UPSTREAM = "Mercado Pago";
const TIMEOUT_MS = 20_000;
const ATTEMPTS = 3;
const PAYMENT_ID = /^\d{1,20}$/;
const CLOCK_SKEW_MS = 60_000;
/** `{collector id}-{uuid}`: anything else is never put in a path. */
const PREFERENCE_ID = /^[0-9A-Za-z-]{1,100}$/;

const preferenceSchema = z.object({ id: z.string().min(1), init_point: z.url() });
const paymentSchema = z.object({
  id: z.union([z.number(), z.string()]),
  status: z.string(),
  status_detail: z.string().nullish(),
  transaction_amount: z.number().nonnegative(),
  transaction_amount_refunded: z.number().nonnegative().nullish(),
  currency_id: z.string().min(1),
  external_reference: z.string().nullish(),
});
type MercadoPagoPayment = z.infer<typeof paymentSchema>;
const searchSchema = z.object({ results: z.array(z.unknown()) });
const refundSchema = z.object({ id: z.union([z.number(), z.string()]), status: z.string() });
const notificationSchema = z.object({ type: z.string().optional() }).loose();

/**
 * Mercado Pago's payment statuses as the store reads them; one it doesn't know never finishes an order. A
 * payment refunded, charged back or in mediation (the buyer's claim) was approved first: it stays approved,
 * with what came back and the dispute told apart.
 */
const STATUSES = new Map<string, ProviderPayment["status"]>([
  ["approved", "approved"],
  ["refunded", "approved"],
  ["charged_back", "approved"],
  ["in_mediation", "approved"],
  ["pending", "pending"],
  ["in_process", "pending"],
  ["authorized", "pending"],
  ["rejected", "rejected"],
  ["cancelled", "rejected"],
]);
const DISPUTED = new Set(["charged_back", "in_mediation"]);

/** A refund's status: `approved` is money given back; `in_process` is on its way (a bank transfer). */
const REFUND_STATUSES = new Map<string, ProviderRefund["status"]>([
  ["approved", "succeeded"],
  ["in_process", "pending"],
  ["pending", "pending"],
]);

/** Mercado Pago's dates: ISO 8601 with milliseconds and an offset (`2017-02-01T12:00:00.000-04:00`). */
export const mercadoPagoDate = (date: Date) => date.toISOString().replace(/Z$/, "+00:00");

interface Answer {
  /** The request, for the log: `GET /v1/payments/1`. */
  what: string;
  status: number;
  body: unknown;
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? undefined : value);

export function mercadoPagoProvider(settings: MercadoPagoSettings): PaymentProvider {
  /**
   * One call to the API. A network failure, a 429 or a 5xx is tried again, with the same idempotency key for
   * a creation, so a preference that was made before the answer got lost isn't made twice.
   */
  async function call(
    method: "GET" | "POST" | "PUT",
    path: string,
    body?: unknown,
    idempotencyKey: string = randomUUID(),
  ): Promise<Answer> {
    const what = `${method} ${path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${settings.accessToken}`,
      accept: "application/json",
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (method === "POST") headers["x-idempotency-key"] = idempotencyKey;
    let failure = "";
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1) await sleep(250 * (attempt - 1));
      try {
        const response = await fetch(`${settings.apiUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        const answer = { what, status: response.status, body: await response.json().catch(() => undefined) };
        if (response.status !== 429 && response.status < 500) return answer;
        failure = `answered ${describe(answer)}`;
      } catch (error) {
        failure = `did not answer ${what}: ${(error as Error).message}`;
      }
    }
    throw new UpstreamUnavailable(UPSTREAM, failure);
  }

  function expectBody<T>(schema: z.ZodType<T>, answer: Answer): T {
    const parsed = schema.safeParse(answer.body);
    if (answer.status >= 200 && answer.status < 300 && parsed.success) return parsed.data;
    throw new UpstreamUnavailable(UPSTREAM, `answered ${describe(answer)}`);
  }

  /** A payment of Mercado Pago's books as the store reads it; null for one no checkout of this store made. */
  function toPayment(payment: MercadoPagoPayment, raw: unknown): ProviderPayment | null {
    // A payment of the same account that no checkout of this store made (another shop, a payment link).
    if (!payment.external_reference) return null;
    const status = STATUSES.get(payment.status) ?? "pending";
    return {
      id: String(payment.id),
      status,
      amountCents: toCents(payment.transaction_amount),
      reference: payment.external_reference,
      currency: payment.currency_id.toLowerCase(),
      refundedCents: toCents(payment.transaction_amount_refunded ?? 0),
      disputed: DISPUTED.has(payment.status),
      declineReason: status === "rejected" ? (payment.status_detail ?? undefined) : undefined,
      raw,
    };
  }

  /** GET /v1/payments/{id}: the payment as Mercado Pago's books have it; null when it has none such. */
  async function lookUpPayment(id: string): Promise<ProviderPayment | null> {
    const answer = await call("GET", `/v1/payments/${id}`);
    if (answer.status === 404) return null;
    return toPayment(expectBody(paymentSchema, answer), answer.body);
  }

  /**
   * Mercado Pago's secret signature: x-signature is `ts=…,v1=…`, v1 the HMAC-SHA256 (hex) of the manifest
   * `id:{data.id};request-id:{x-request-id};ts:{ts};` where data.id is the query's, lowercased.
   */
  function verifySignature({ headers, query }: WebhookRequest) {
    const signature = single(headers["x-signature"]);
    const requestId = single(headers["x-request-id"]);
    const dataId = query["data.id"];
    if (!signature || !requestId || !dataId)
      throw new InvalidWebhookSignature(
        "A Mercado Pago notification needs its x-signature and x-request-id headers and data.id",
      );
    const parts = signatureParts(signature);
    const ts = parts.get("ts") ?? "";
    const v1 = parts.get("v1") ?? "";
    if (!/^\d{1,16}$/.test(ts) || !/^[0-9a-f]{64}$/i.test(v1))
      throw new InvalidWebhookSignature("x-signature must be ts=…,v1=…");
    const manifest = `id:${dataId.toLowerCase()};request-id:${requestId};ts:${ts};`;
    const expected = createHmac("sha256", settings.webhookSecret).update(manifest).digest();
    if (!timingSafeEqual(Buffer.from(v1, "hex"), expected))
      throw new InvalidWebhookSignature("x-signature does not match this notification");
    // Mercado Pago's documentation shows ts in seconds, its notifications send milliseconds: both are read.
    const signedAt = ts.length > 11 ? Number(ts) / 1000 : Number(ts);
    if (Math.abs(Date.now() / 1000 - signedAt) > WEBHOOK_TOLERANCE_SECONDS)
      throw new InvalidWebhookSignature("x-signature is too old");
    return { dataId, requestId };
  }

  return {
    name: "mercadopago",
    async createCheckout(request) {
      const answer = await call("POST", "/checkout/preferences", {
        items: request.items.map((item) => ({
          title: item.title,
          quantity: item.amount,
          unit_price: item.unitPriceCents / 100,
          currency_id: "USD",
        })),
        payer: { email: request.payerEmail },
        external_reference: request.reference,
        // A pending payment comes back to the success page too: the page asks the server what became of it.
        back_urls: { success: request.successUrl, failure: request.failureUrl, pending: request.successUrl },
        auto_return: "approved",
        ...(settings.notificationUrl ? { notification_url: settings.notificationUrl } : {}),
        // Checkout Pro takes no payment outside this window: the store's hold on the stock. It opens a minute
        // early, so a clock of Mercado Pago's a little behind ours doesn't turn the shopper away at first.
        expires: true,
        expiration_date_from: mercadoPagoDate(new Date(Date.now() - CLOCK_SKEW_MS)),
        expiration_date_to: mercadoPagoDate(request.expiresAt),
      });
      const preference = expectBody(preferenceSchema, answer);
      return { id: preference.id, initPoint: preference.init_point };
    },

    async paymentFromReturn(query) {
      // Checkout Pro's return URL names the payment twice (payment_id and collection_id); "null" when none.
      const id = query.payment_id ?? query.collection_id;
      return id && PAYMENT_ID.test(id) ? lookUpPayment(id) : null;
    },

    async paymentFromWebhook(request) {
      const { dataId, requestId } = verifySignature(request);
      const body = request.rawBody.length ? parseJson(request.rawBody) : {};
      const notification = notificationSchema.safeParse(body);
      if (!notification.success)
        throw new InvalidInput("body", "must be a Mercado Pago notification in JSON");
      if ((request.query.type ?? notification.data.type) !== "payment") return null;
      if (!PAYMENT_ID.test(dataId)) throw new InvalidInput("data.id", "must be a payment id");
      const payment = await lookUpPayment(dataId);
      return payment && { eventId: requestId, payment };
    },

    async refund(providerPaymentId, amountCents, idempotencyKey) {
      if (!PAYMENT_ID.test(providerPaymentId))
        throw new InvalidInput("providerPaymentId", "must be a Mercado Pago payment id");
      // The key is the caller's: a retry after a lost answer, now or by a later run, makes no second refund.
      const answer = await call(
        "POST",
        `/v1/payments/${providerPaymentId}/refunds`,
        { amount: amountCents / 100 },
        idempotencyKey,
      );
      const refund = expectBody(refundSchema, answer);
      const status = REFUND_STATUSES.get(refund.status);
      if (!status)
        throw new UpstreamUnavailable(
          UPSTREAM,
          `refund ${refund.id} of payment ${providerPaymentId} is ${refund.status}`,
        );
      return { id: String(refund.id), status };
    },

    async closeCheckout(preferenceId) {
      if (!PREFERENCE_ID.test(preferenceId))
        throw new InvalidInput("providerCheckoutId", "must be a preference id");
      // A paid preference keeps its payment; a new one can't start once the preference has expired.
      const answer = await call("PUT", `/checkout/preferences/${preferenceId}`, {
        expires: true,
        expiration_date_to: mercadoPagoDate(new Date()),
      });
      // One Mercado Pago doesn't know can't be paid either.
      if (answer.status === 404) return;
      if (answer.status < 200 || answer.status >= 300)
        throw new UpstreamUnavailable(UPSTREAM, `answered ${describe(answer)}`);
    },

    async paymentOfCheckout({ reference }) {
      const query = new URLSearchParams({
        external_reference: reference,
        sort: "date_created",
        criteria: "desc",
      });
      const answer = await call("GET", `/v1/payments/search?${query}`);
      const payments = expectBody(searchSchema, answer).results.flatMap((result) => {
        const parsed = paymentSchema.safeParse(result);
        if (!parsed.success)
          throw new UpstreamUnavailable(UPSTREAM, `answered ${describe(answer)}: a malformed payment`);
        const payment = toPayment(parsed.data, result);
        // The search matches the store's reference; anything else in the answer isn't this checkout's.
        return payment?.reference === reference ? [payment] : [];
      });
      // Newest first: the approved one if any, else the latest attempt.
      return payments.find((payment) => payment.status === "approved") ?? payments[0] ?? null;
    },
  };
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    throw new InvalidInput("body", "must be a Mercado Pago notification in JSON");
  }
}

/** An answer for the log: its status and Mercado Pago's own message (`{message, error, status, cause}`). */
function describe({ what, status, body }: Answer) {
  const message = (body as { message?: unknown } | undefined)?.message;
  return `${status} to ${what}${typeof message === "string" ? `: ${message.slice(0, 200)}` : ""}`;
}

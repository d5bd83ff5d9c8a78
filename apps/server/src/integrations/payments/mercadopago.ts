import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { InvalidInput, UpstreamUnavailable } from "../../errors";
import {
  InvalidWebhookSignature,
  WEBHOOK_TOLERANCE_SECONDS,
  type PaymentProvider,
  type ProviderPayment,
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

const preferenceSchema = z.object({ id: z.string().min(1), init_point: z.url() });
const paymentSchema = z.object({
  id: z.union([z.number(), z.string()]),
  status: z.string(),
  status_detail: z.string().nullish(),
  transaction_amount: z.number().nonnegative(),
  external_reference: z.string().nullish(),
});
const notificationSchema = z.object({ type: z.string().optional() }).loose();

/** Mercado Pago's payment statuses as the store reads them; one it doesn't know never finishes an order. */
const STATUSES = new Map<string, ProviderPayment["status"]>([
  ["approved", "approved"],
  ["pending", "pending"],
  ["in_process", "pending"],
  ["authorized", "pending"],
  ["in_mediation", "pending"],
  ["rejected", "rejected"],
  ["cancelled", "rejected"],
  ["refunded", "rejected"],
  ["charged_back", "rejected"],
]);
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
  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> {
    const what = `${method} ${path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${settings.accessToken}`,
      accept: "application/json",
    };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      headers["x-idempotency-key"] = randomUUID();
    }
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

  /** GET /v1/payments/{id}: the payment as Mercado Pago's books have it; null when it has none such. */
  async function lookUpPayment(id: string): Promise<ProviderPayment | null> {
    const answer = await call("GET", `/v1/payments/${id}`);
    if (answer.status === 404) return null;
    const payment = expectBody(paymentSchema, answer);
    // A payment of the same account that no checkout of this store made (another shop, a payment link).
    if (!payment.external_reference) return null;
    const status = STATUSES.get(payment.status) ?? "pending";
    return {
      id: String(payment.id),
      status,
      amountCents: Math.round(payment.transaction_amount * 100),
      reference: payment.external_reference,
      declineReason: status === "rejected" ? (payment.status_detail ?? undefined) : undefined,
      raw: answer.body,
    };
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
    const parts = new Map(
      signature.split(",").map((part) => {
        const [key = "", ...value] = part.split("=");
        return [key.trim(), value.join("=").trim()] as const;
      }),
    );
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

import type { PaymentProviderName } from "@voltio/domain/payments";
import { NotSignedIn } from "../../errors";

/**
 * What the store needs from a payment company (docs/product-rules.md §14.2 integrations): make a hosted checkout for an
 * amount, and tell what became of a payment. The store decides nothing from what the browser says; it asks
 * the provider through this interface. Adapters: sandbox (built in), mercadopago.ts and stripe.ts.
 */
export interface CheckoutRequest {
  /** The store's checkout id: the provider hands it back with every payment (external reference). */
  reference: string;
  description: string;
  /** Each line as the shopper sees it, the shipping as its own line (docs/product-rules.md §10.6 pay items). */
  items: { title: string; amount: number; unitPriceCents: number }[];
  amountCents: number;
  payerEmail: string;
  successUrl: string;
  failureUrl: string;
  /** When the checkout stops taking payments at the provider (the store's stock hold ends then). */
  expiresAt: Date;
}

export interface ProviderCheckout {
  id: string;
  initPoint: string;
}

/** A payment as the provider's own books have it. */
export interface ProviderPayment {
  id: string;
  status: "approved" | "pending" | "rejected";
  amountCents: number;
  /** The store's checkout id given at checkout time. */
  reference: string;
  /** ISO 4217 code in lower case ("usd"): the store sells in dollars and checks it. */
  currency: string;
  /** What the provider has given back of it so far (through the store or its own dashboard). */
  refundedCents: number;
  /** The buyer's bank disputed it (a chargeback). */
  disputed: boolean;
  /** Why a rejected payment was declined, in the provider's words. */
  declineReason?: string;
  raw: unknown;
}

/** A refund as the provider took it. */
export interface ProviderRefund {
  id: string;
  status: "succeeded" | "pending";
}

/** A notification as it reached the webhook route: the body exactly as sent, for the signature. */
export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  query: Record<string, string | undefined>;
}

export interface WebhookNotification {
  /** The provider's id for this notification, recorded once (payment_events). */
  eventId: string;
  payment: ProviderPayment;
}

/** A notification whose signature is missing, forged or too old: it is refused with nothing changed. */
export class InvalidWebhookSignature extends NotSignedIn {}

/** A signature header's `key=value` pairs, comma-separated (`ts=…,v1=…`, as Mercado Pago and the sandbox sign). */
export const signatureParts = (header: string) =>
  new Map(
    header.split(",").map((part) => {
      const [key = "", ...value] = part.split("=");
      return [key.trim(), value.join("=").trim()] as const;
    }),
  );

/** How long a signed notification stays valid: a captured one can't be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCheckout(request: CheckoutRequest): Promise<ProviderCheckout>;
  /** The payment named by the return page's query string, looked up with the provider; null when unknown. */
  paymentFromReturn(query: Record<string, string | undefined>): Promise<ProviderPayment | null>;
  /**
   * The payment a provider's notification is about, looked up with the provider once the signature checks
   * out (never read from the notification itself); null for a notification about anything else or a payment
   * the provider doesn't know. Throws InvalidWebhookSignature for a bad signature, InvalidInput for a signed
   * notification that makes no sense.
   */
  paymentFromWebhook?(request: WebhookRequest): Promise<WebhookNotification | null>;
  /**
   * Gives back `amountCents` of a payment. The same idempotency key twice makes one refund (a retry after a
   * lost answer is safe). Throws UpstreamUnavailable when the provider can't be reached or refuses.
   */
  refund(providerPaymentId: string, amountCents: number, idempotencyKey: string): Promise<ProviderRefund>;
  /** Stops a checkout from taking payments (it was replaced or its hold ended); one already paid stays so. */
  closeCheckout(providerCheckoutId: string): Promise<void>;
  /**
   * What became of a checkout, asked of the provider (the re-check of a checkout whose return was lost): its
   * approved payment if any, else its latest attempt; null when nothing was paid or tried.
   */
  paymentOfCheckout(checkout: {
    reference: string;
    providerCheckoutId: string;
  }): Promise<ProviderPayment | null>;
}

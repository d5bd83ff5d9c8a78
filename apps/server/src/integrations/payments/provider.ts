import type { PaymentProviderName } from "@voltio/domain/payments";
import { NotSignedIn } from "../../errors";

/**
 * What the store needs from a payment company (DESIGN.md §2 integrations): make a hosted checkout for an
 * amount, and tell what became of a payment. The store decides nothing from what the browser says; it asks
 * the provider through this interface. Adapters: sandbox (built in), mercadopago.ts and stripe.ts.
 */
export interface CheckoutRequest {
  /** The store's checkout id: the provider hands it back with every payment (external reference). */
  reference: string;
  description: string;
  /** Each line as the shopper sees it, the shipping as its own line (SPEC.md §7 pay items). */
  items: { title: string; amount: number; unitPriceCents: number }[];
  amountCents: number;
  payerEmail: string;
  successUrl: string;
  failureUrl: string;
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
  /** Why a rejected payment was declined, in the provider's words. */
  declineReason?: string;
  raw: unknown;
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
}

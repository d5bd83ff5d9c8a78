import type { PaymentProviderName } from "@voltio/domain/payments";

/**
 * What the store needs from a payment company (DESIGN.md §2 integrations): make a hosted checkout for an
 * amount, and tell what became of a payment. The store decides nothing from what the browser says; it asks
 * the provider through this interface. Adapters: sandbox (built in); Mercado Pago and Stripe to come.
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

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCheckout(request: CheckoutRequest): Promise<ProviderCheckout>;
  /** The payment named by the return page's query string, looked up with the provider; null when unknown. */
  paymentFromReturn(query: Record<string, string | undefined>): Promise<ProviderPayment | null>;
}

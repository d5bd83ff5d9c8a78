import type { CheckoutRequest } from "../src/integrations/payments/provider";

let serial = 0;

/** A checkout as the store asks a provider for it (an adapter's tests, without the store around it). */
export function checkoutRequest(
  values: Partial<CheckoutRequest> = {},
  origin = "https://shop.voltio.test",
): CheckoutRequest {
  return {
    reference: String(5000 + ++serial),
    description: "Voltio order",
    items: [
      { title: "Lamp", amount: 2, unitPriceCents: 1250 },
      { title: "shippingCost", amount: 1, unitPriceCents: 300 },
    ],
    amountCents: 2800,
    payerEmail: "buyer@voltio.test",
    successUrl: `${origin}/purchase/success`,
    failureUrl: `${origin}/purchase/failure`,
    expiresAt: new Date(Date.now() + 3600_000),
    ...values,
  };
}

import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { mercadoPagoProvider } from "./mercadopago";
import type { PaymentProvider } from "./provider";
import { sandboxProvider } from "./sandbox";

/** The provider PAYMENT_PROVIDER names, with its keys. */
export async function createPaymentProvider(
  config: Pick<Config, "payments" | "publicUrl">,
  db: Db,
): Promise<PaymentProvider> {
  const payments = config.payments;
  switch (payments.provider) {
    case "sandbox":
      return sandboxProvider(db, payments);
    case "mercadopago": {
      // source_news=webhooks asks for the signed Webhooks notifications only, not the older unsigned IPN ones.
      // Mercado Pago refuses a notification_url it can't reach (http://localhost): a store that isn't public
      // yet learns of its payments from the return page alone. Stripe's endpoint is set in its dashboard.
      const notificationUrl = `${config.publicUrl}/api/mercadopago/webhook?source_news=webhooks`;
      return mercadoPagoProvider({
        ...payments,
        notificationUrl: notificationUrl.startsWith("https://") ? notificationUrl : undefined,
      });
    }
    case "stripe":
      // Stripe's SDK (~3 MB of heap) loads only in a store that takes its payments.
      return (await import("./stripe")).stripeProvider(payments);
  }
}

import type { Config } from "../../config";
import type { Db } from "../../db/client";
import type { PaymentProvider } from "./provider";
import { sandboxProvider } from "./sandbox";

/** The provider PAYMENT_PROVIDER names. */
export function createPaymentProvider(config: Pick<Config, "paymentProvider">, db: Db): PaymentProvider {
  switch (config.paymentProvider) {
    case "sandbox":
      return sandboxProvider(db);
  }
}

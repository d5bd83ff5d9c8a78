import type { Translate } from "@/i18n";
import { formatDollars, toDollars } from "@voltio/domain/money";

/** 'Free shipping' or 'Shipping $5.00'. */
export const shippingText = (t: Translate, cents: number) =>
  cents === 0
    ? t("checkout.itemFreeShipping")
    : t("checkout.itemShipping", { cost: formatDollars(toDollars(cents)) });

import { useTranslation } from "@/i18n";
import type { CheckoutItem } from "@voltio/domain/checkout";
import { formatDollars, toDollars } from "@voltio/domain/money";
import { shippingText } from "./shipping-text";

/** One charged item of a line: '2 × $29.99 · Shipping $5.00', or the discounted units with no shipping. */
export function ChargedItem({ item }: { item: CheckoutItem }) {
  const { t } = useTranslation();
  return (
    <li className="flex flex-wrap items-center gap-x-2 text-muted tabular-nums">
      <span className="whitespace-nowrap">
        {t("checkout.item", { count: item.amount, price: formatDollars(toDollars(item.unitPriceCents)) })}
      </span>
      {item.discountPercentage !== null && (
        <span className="whitespace-nowrap rounded bg-sale/10 px-1.5 text-xs font-semibold text-sale">
          {t("checkout.itemDiscount", { percentage: item.discountPercentage })}
        </span>
      )}
      <span className="whitespace-nowrap">{shippingText(t, item.shippingCents)}</span>
    </li>
  );
}

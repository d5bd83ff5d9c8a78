import { useTranslation } from "@/i18n";
import { checkoutItems, type PendingLine } from "@voltio/domain/checkout";
import { ChargedItem } from "./ChargedItem";
import { shippingText } from "./shipping-text";

/**
 * How a line is charged: its units and shipping, and when an 'on Nth unit' sale (or a total that doesn't
 * divide evenly) splits it, each item — the discounted units on a line of their own with shipping 0.
 */
export function LineCharges({ line }: { line: PendingLine }) {
  const { t } = useTranslation();
  const items = checkoutItems(line);
  if (items.length === 1)
    return (
      <span className="flex flex-wrap gap-x-2 text-muted">
        <span className="whitespace-nowrap">{t("purchases.amount", { count: line.amount })}</span>
        <span className="whitespace-nowrap">{shippingText(t, line.shippingCents)}</span>
      </span>
    );
  return (
    <ul className="flex flex-col gap-0.5">
      {items.map((item, index) => (
        <ChargedItem key={index} item={item} />
      ))}
    </ul>
  );
}

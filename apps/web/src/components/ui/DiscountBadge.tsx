import { useTranslation } from "@/i18n";
import { saleLabel, type SaleTerms } from "@voltio/domain/discount";

/** '{percentage}% OFF', plus ' on {n}º unit' when the sale needs more units (docs/product-rules.md §12). */
export function DiscountBadge({ sale, className = "" }: { sale: SaleTerms; className?: string }) {
  const { t } = useTranslation();
  const label = saleLabel(sale);
  return (
    <span
      className={`inline-flex max-w-full items-center rounded-full bg-sale px-2.5 py-1 text-xs font-bold tracking-wide text-on-sale shadow-sm ${className}`}
    >
      {t("catalog.off", { percentage: label.percentage })}
      {label.onUnit !== null && t("catalog.onUnit", { unit: label.onUnit })}
    </span>
  );
}

import { useTranslation } from "react-i18next";
import type { Product } from "@voltio/domain/catalog";
import { bestSale, discountedUnitCents, type SaleTerms } from "@voltio/domain/discount";
import { toCents } from "@voltio/domain/money";
import type { Weekday } from "@voltio/domain/weekday";

interface PriceTagProps {
  product: Pick<Product, "price" | "sales">;
  globalSales: SaleTerms[];
  today: Weekday | undefined;
  size?: "md" | "lg";
}

const usd = (cents: number) => `US$ ${(cents / 100).toFixed(2)}`;

/** The price as the server will charge it: discounted by packages/domain, the original struck through. */
export function PriceTag({ product, globalSales, today, size = "md" }: PriceTagProps) {
  const { t } = useTranslation();
  const sale = today ? bestSale(product.sales, globalSales, today) : null;
  const original = toCents(product.price);
  const final = discountedUnitCents(original, sale);
  const big = size === "lg" ? "text-3xl" : "text-lg";
  return (
    <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
      <span className={`${big} font-bold tracking-tight text-ink`}>{usd(final)}</span>
      {sale && (
        <>
          <s className="text-sm text-muted" aria-label={`${usd(original)}`}>
            {usd(original)}
          </s>
          <span className="rounded-full bg-sale px-2 py-0.5 text-xs font-semibold text-white">
            {t("catalog.off", { percentage: sale.percentage })}
            {sale.productAmount > 0 && t("catalog.onUnit", { unit: sale.productAmount + 1 })}
          </span>
        </>
      )}
    </div>
  );
}

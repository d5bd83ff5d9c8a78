import { useTranslation } from "@/i18n";
import type { PriceToday } from "@voltio/domain/pricing";
import { usd } from "./usd";

const SIZES = { sm: "text-sm", md: "text-base sm:text-lg", lg: "text-3xl sm:text-4xl" } as const;

/** The price a shopper pays, prominent, with the original struck through when the unit is discounted. */
export function PriceTag({ price, size = "md" }: { price: PriceToday; size?: keyof typeof SIZES }) {
  const { t } = useTranslation();
  const discounted = price.unitCents !== price.originalCents;
  return (
    <p className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
      {discounted && <span className="sr-only">{t("price.now")}</span>}
      <span
        className={`${SIZES[size]} font-bold tracking-tight whitespace-nowrap tabular-nums ${discounted ? "text-sale" : "text-ink"}`}
      >
        {usd(price.unitCents)}
      </span>
      {discounted && (
        <>
          <span className="sr-only">{t("price.before")}</span>
          <s
            className={`${size === "lg" ? "text-base" : "text-xs"} whitespace-nowrap text-muted tabular-nums`}
          >
            {usd(price.originalCents)}
          </s>
        </>
      )}
    </p>
  );
}

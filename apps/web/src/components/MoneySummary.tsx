import { useTranslation } from "@/i18n";

interface MoneySummaryProps {
  /** Cents; null while a line's price is still unknown. */
  productsCents: number | null;
  shippingCents: number;
  totalCents: number | null;
  /** `{prefix}-products`, `{prefix}-shipping`, `{prefix}-total`: the figures journeys compare across screens. */
  testIdPrefix: string;
  /** The header's preview: smaller, the total not emphasised as much. */
  compact?: boolean;
}

const money = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));

/**
 * Products, shipping and total as every screen shows them (ADR 0015): the figures come from
 * `checkoutTotals` (packages/domain/checkout.ts), and the shipping says how it combines.
 */
export function MoneySummary({
  productsCents,
  shippingCents,
  totalCents,
  testIdPrefix,
  compact = false,
}: MoneySummaryProps) {
  const { t } = useTranslation();
  const amount = (cents: number | null) => {
    const text = money(cents);
    return text === null ? t("money.unknown") : t("money.amount", { amount: text });
  };
  return (
    <dl className={`flex flex-col tabular-nums ${compact ? "gap-1 text-xs" : "gap-2 text-sm"}`}>
      <div className="flex justify-between gap-3">
        <dt className="text-muted">{t("money.products")}</dt>
        <dd className="text-ink" data-testid={`${testIdPrefix}-products`}>
          {amount(productsCents)}
        </dd>
      </div>
      <div className="flex justify-between gap-3">
        <dt className="text-muted">
          {t("money.shipping")} <span className="text-xs">{t("money.shippingRule")}</span>
        </dt>
        <dd className="text-ink" data-testid={`${testIdPrefix}-shipping`}>
          {amount(shippingCents)}
        </dd>
      </div>
      <div
        className={`flex justify-between gap-3 border-t border-line pt-2 font-bold ${compact ? "text-sm" : "text-base"}`}
      >
        <dt className="text-ink">{t("money.total")}</dt>
        <dd className="text-ink" data-testid={`${testIdPrefix}-total`}>
          {amount(totalCents)}
        </dd>
      </div>
    </dl>
  );
}

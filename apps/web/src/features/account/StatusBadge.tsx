import type { OrderStatus } from "@voltio/domain/order-status";
import { useTranslation } from "@/i18n";

const STYLE: Partial<Record<OrderStatus, string>> = {
  pending: "bg-surface text-muted",
  cancelled: "bg-sale/10 text-sale",
};

/** A purchase's (or a shipment's) status as the shopper reads it: the Purchases cards and the order page. */
export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STYLE[status] ?? "bg-accent-soft text-accent-strong"}`}
    >
      {t(`purchases.status.${status}`)}
    </span>
  );
}

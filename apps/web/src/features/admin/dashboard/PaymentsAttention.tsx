import { Link } from "react-router";
import { ChevronRight, TriangleAlert } from "lucide-react";
import { useTranslation } from "@/i18n";
import { focusRingClass } from "@/components/ui/focus-ring";
import { usePaymentsNeedingAttention } from "../payments/api";

/**
 * 'N payments need attention', to the payments that do: nothing while there are none, or while the
 * count can't be read (the Payments screen says why).
 */
export function PaymentsAttention() {
  const { t } = useTranslation();
  const count = usePaymentsNeedingAttention().data ?? 0;
  if (count === 0) return null;
  return (
    <Link
      to="/admin/payments?attention=true"
      className={`flex items-center gap-3 rounded-2xl border border-sale bg-card p-4 text-sm font-semibold text-ink shadow-[inset_4px_0_0_var(--color-sale)] hover:bg-sale/5 ${focusRingClass}`}
    >
      <TriangleAlert size={18} aria-hidden className="shrink-0 text-sale" />
      <span className="flex-1">{t("admin.dashboard.paymentsAttention", { count })}</span>
      <ChevronRight size={18} aria-hidden className="shrink-0 text-muted" />
    </Link>
  );
}

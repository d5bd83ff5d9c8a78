import type { ReactNode } from "react";
import { TriangleAlert, X } from "lucide-react";
import { useTranslation } from "@/i18n";
import { IconButton } from "@/components/ui/IconButton";

/** What the server refused, in red above a back-office list, until it is dismissed. */
export function ProblemAlert({ children, onDismiss }: { children: ReactNode; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-2xl border border-sale bg-card p-4 text-sm text-ink"
    >
      <TriangleAlert size={18} aria-hidden className="mt-0.5 shrink-0 text-sale" />
      <p className="flex-1">{children}</p>
      <IconButton
        label={t("admin.dismiss")}
        icon={<X size={16} aria-hidden />}
        size="sm"
        onClick={onDismiss}
      />
    </div>
  );
}

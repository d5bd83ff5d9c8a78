import { ChevronLeft, ChevronRight } from "lucide-react";
import { useTranslation } from "@/i18n";
import { IconButton } from "@/components/ui/IconButton";

const BAR = "flex items-center justify-center gap-3 text-sm";

/**
 * A back-office list's pages: previous, 'Page X of Y', next. `label` names the navigation landmark;
 * `className` is for layout only (margins).
 */
export function PageBar({
  label,
  page,
  totalPages,
  onPage,
  className,
}: {
  label: string;
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  className?: string;
}) {
  const { t } = useTranslation();
  const pages = Math.max(totalPages, 1);
  return (
    <nav aria-label={label} className={className ? `${className} ${BAR}` : BAR}>
      <IconButton
        label={t("admin.pageBar.previous")}
        icon={<ChevronLeft size={18} aria-hidden />}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      />
      <span className="text-muted tabular-nums">{t("admin.pageBar.page", { page, pages })}</span>
      <IconButton
        label={t("admin.pageBar.next")}
        icon={<ChevronRight size={18} aria-hidden />}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      />
    </nav>
  );
}

import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { focusRingClass } from "@/components/ui/focus-ring";
import { pageNumbers, withPage } from "./listing-query";

const itemClass = `inline-flex h-10 min-w-10 items-center justify-center gap-1 rounded-xl px-3 text-sm font-medium tabular-nums transition ${focusRingClass}`;

/** The page bar under the grid: previous, page numbers around the current one, next. */
export function Pagination({
  params,
  page,
  total,
}: {
  params: URLSearchParams;
  page: number;
  total: number;
}) {
  const { t } = useTranslation();
  if (total <= 1) return null;
  const href = (target: number) => `/products?${withPage(params, target).toString()}`;
  return (
    <nav
      aria-label={t("listing.pagination")}
      className="mt-10 flex flex-wrap items-center justify-center gap-1.5"
    >
      {page > 1 ? (
        <Link
          to={href(page - 1)}
          className={`${itemClass} border border-line bg-card text-ink hover:border-accent`}
        >
          <ChevronLeft size={18} aria-hidden />
          <span className="sr-only sm:not-sr-only">{t("catalog.previous")}</span>
        </Link>
      ) : null}
      {pageNumbers(page, total).map((item, index) =>
        item === "gap" ? (
          <span key={`gap-${index}`} aria-hidden className="px-1 text-muted">
            …
          </span>
        ) : (
          <Link
            key={item}
            to={href(item)}
            aria-label={t("listing.pageNumber", { page: item })}
            aria-current={item === page ? "page" : undefined}
            className={`${itemClass} ${
              item === page
                ? "bg-accent text-on-accent"
                : "border border-line bg-card text-ink hover:border-accent hover:text-accent-strong"
            }`}
          >
            {item}
          </Link>
        ),
      )}
      {page < total ? (
        <Link
          to={href(page + 1)}
          className={`${itemClass} border border-line bg-card text-ink hover:border-accent`}
        >
          <span className="sr-only sm:not-sr-only">{t("catalog.next")}</span>
          <ChevronRight size={18} aria-hidden />
        </Link>
      ) : null}
    </nav>
  );
}

import type { ReactNode } from "react";
import { useTranslation } from "@/i18n";

/**
 * The 'No results found' picture (docs/product-rules.md §1), drawn in the theme's colours so it suits both themes. Other
 * empty answers (a page past the last, an unknown category, a search too long) say what happened instead.
 */
export function NoResults({
  title,
  hint,
  children,
}: {
  title?: string;
  hint?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-center py-16 text-center">
      <svg
        role="img"
        aria-label={t("listing.noResultsPicture")}
        viewBox="0 0 240 180"
        width={240}
        height={180}
        className="h-auto w-56 max-w-full"
      >
        <ellipse cx="120" cy="160" rx="90" ry="10" className="fill-line" />
        <rect
          x="50"
          y="70"
          width="110"
          height="80"
          rx="10"
          className="fill-accent-soft stroke-accent"
          strokeWidth="3"
        />
        <path d="M50 92h110" className="stroke-accent" strokeWidth="3" />
        <path
          d="M88 70l-12-22h58l-12 22"
          className="fill-card stroke-accent"
          strokeWidth="3"
          strokeLinejoin="round"
        />
        <circle cx="160" cy="82" r="30" className="fill-card stroke-ink" strokeWidth="6" />
        <path d="M181 104l26 26" className="stroke-ink" strokeWidth="10" strokeLinecap="round" />
        <path d="M150 72l20 20M170 72l-20 20" className="stroke-sale" strokeWidth="5" strokeLinecap="round" />
      </svg>
      <p className="mt-6 text-xl font-semibold text-ink">{title ?? t("catalog.noResults")}</p>
      <p className="mt-2 max-w-sm text-sm text-muted">{hint ?? t("listing.noResultsHint")}</p>
      {children}
    </div>
  );
}

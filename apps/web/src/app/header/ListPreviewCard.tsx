import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import type { GuestListName } from "@/api/guest-lists";
import type { ListLine } from "@/api/list-lines";
import { usd } from "@/components/ui/usd";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { MoneySummary } from "@/components/MoneySummary";
import { cartSummary } from "@/features/cart/cart-summary";
import { LIST_LINKS } from "./list-links";
import { Thumbnail } from "@/components/ui/Thumbnail";

/** docs/product-rules.md §12: the header previews show the first 2 lines. */
export const PREVIEW_LINES = 2;

/** The cart shows each line's total; the wishlist the price of one unit. */
const shownCents = (list: GuestListName, line: ListLine) =>
  list === "inCart" ? line.totalCents : (line.price?.unitCents ?? null);

/**
 * The preview under the wishlist or cart icon: its first lines, the cart's figures and a link to the list.
 * Its own chunk (ListPreview loads it the first time a preview opens): no page needs it to show.
 */
export default function ListPreviewCard({
  list,
  id,
  lines,
}: {
  list: GuestListName;
  id: string;
  lines: ListLine[];
}) {
  const { t } = useTranslation();
  const config = LIST_LINKS[list];
  return (
    // The padding bridges the gap to the icon, so the pointer can travel into the preview.
    <div className="absolute top-full right-0 z-50 w-80 max-w-[calc(100vw-1rem)] pt-2">
      <Card id={id} className="p-4 shadow-xl">
        <p className="mb-3 text-sm font-semibold text-ink">{t(config.label)}</p>
        {lines.length === 0 ? (
          <p className="py-2 text-sm text-muted">{t(config.empty)}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {lines.slice(0, PREVIEW_LINES).map((line) => {
              const cents = shownCents(list, line);
              return (
                <li key={line.productId} className="flex items-center gap-3">
                  <Thumbnail src={line.image} width={64} height={48} className="h-12 w-16" />
                  <span className="min-w-0 flex-1">
                    <Link
                      to={`/product/${line.productId}`}
                      className="line-clamp-2 text-sm text-ink hover:text-accent-strong hover:underline"
                    >
                      {line.title}
                    </Link>
                    <span className="text-xs text-muted tabular-nums">
                      {list === "inCart" && `${t("nav.quantity", { count: line.amount })} · `}
                      {cents !== null && <span className="font-semibold text-ink">{usd(cents)}</span>}
                    </span>
                  </span>
                </li>
              );
            })}
          </ul>
        )}
        {lines.length > PREVIEW_LINES && (
          <p className="mt-3 text-xs text-muted">
            {t("nav.moreLines", { count: lines.length - PREVIEW_LINES })}
          </p>
        )}
        {list === "inCart" && lines.length > 0 && (
          // The whole cart's figures, as the cart and checkout show them (ADR 0015).
          <div className="mt-3 border-t border-line pt-3">
            <MoneySummary {...cartSummary(lines)} testIdPrefix="preview" compact />
          </div>
        )}
        <Link to={config.path} className={buttonClass({ size: "md", className: "mt-4 w-full" })}>
          {t(config.goTo)}
        </Link>
      </Card>
    </div>
  );
}

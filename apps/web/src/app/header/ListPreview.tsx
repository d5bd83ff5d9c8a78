import { useId, useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { Heart, ShoppingCart } from "lucide-react";
import type { GuestListName } from "@/api/guest-lists";
import { useListLines, type ListLine } from "@/api/list-lines";
import { usd } from "@/components/ui/usd";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { focusRingClass } from "@/components/ui/focus-ring";
import { MoneySummary } from "@/components/MoneySummary";
import { cartSummary } from "@/features/cart/cart-summary";

/** SPEC.md §9: the header previews show the first 2 lines. */
export const PREVIEW_LINES = 2;

const LISTS = {
  inCart: {
    path: "/cart",
    Icon: ShoppingCart,
    label: "nav.cart",
    empty: "nav.cartEmpty",
    goTo: "nav.goToCart",
    count: "nav.cartCount",
  },
  inWishList: {
    path: "/wishlist",
    Icon: Heart,
    label: "nav.wishlist",
    empty: "nav.wishlistEmpty",
    goTo: "nav.goToWishlist",
    count: "nav.wishlistCount",
  },
} as const;

/** The cart shows each line's total; the wishlist the price of one unit. */
const shownCents = (list: GuestListName, line: ListLine) =>
  list === "inCart" ? line.totalCents : (line.price?.unitCents ?? null);

/**
 * The wishlist or cart icon: a link to the list, with a preview of its first 2 lines while hovered or
 * focused (Escape hides it). On touch screens the link simply opens the list.
 */
export function ListPreview({ list }: { list: GuestListName }) {
  const { t } = useTranslation();
  const previewId = useId();
  const [open, setOpen] = useState(false);
  // Prices only once the preview opens: a closed icon needs the count alone.
  const { lines } = useListLines(list, { priced: open });
  const config = LISTS[list];
  const items = lines.reduce((sum, line) => sum + (list === "inCart" ? line.amount : 1), 0);

  return (
    <div
      className="relative"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") setOpen(false);
      }}
    >
      <Link
        to={config.path}
        aria-label={t(config.count, { count: items })}
        aria-describedby={open ? previewId : undefined}
        className={`relative grid h-10 w-9 place-items-center rounded-xl sm:h-11 sm:w-11 text-ink transition hover:bg-accent-soft hover:text-accent-strong ${focusRingClass}`}
      >
        <config.Icon size={22} aria-hidden />
        {items > 0 && (
          <span
            aria-hidden
            className="absolute top-1 right-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-accent px-1 text-[11px] leading-none font-bold text-on-accent"
          >
            {items > 99 ? "99+" : items}
          </span>
        )}
      </Link>
      {open && (
        // The padding bridges the gap to the icon, so the pointer can travel into the preview.
        <div className="absolute top-full right-0 z-50 w-80 max-w-[calc(100vw-1rem)] pt-2">
          <Card id={previewId} className="p-4 shadow-xl">
            <p className="mb-3 text-sm font-semibold text-ink">{t(config.label)}</p>
            {lines.length === 0 ? (
              <p className="py-2 text-sm text-muted">{t(config.empty)}</p>
            ) : (
              <ul className="flex flex-col gap-3">
                {lines.slice(0, PREVIEW_LINES).map((line) => {
                  const cents = shownCents(list, line);
                  return (
                    <li key={line.productId} className="flex items-center gap-3">
                      <span className="h-12 w-16 shrink-0 overflow-hidden rounded-lg bg-accent-soft">
                        {line.image && (
                          <img
                            src={line.image}
                            alt=""
                            width={64}
                            height={48}
                            className="h-full w-full object-contain"
                          />
                        )}
                      </span>
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
      )}
    </div>
  );
}

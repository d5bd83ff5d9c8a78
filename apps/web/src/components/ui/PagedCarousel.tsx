import { useRef, useState, type ReactNode, type TouchEvent } from "react";
import { useTranslation } from "@/i18n";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { IconButton } from "./IconButton";

/**
 * A card's width for each number of cards a page shows, as classes (see the transform below). Thirds and
 * sixths a hair over (the build's CSS keeps 6 digits): rounded down, a sliver of the next page's card shows.
 */
const CARD_WIDTHS = ["w-full", "w-1/2", "w-[33.334%]", "w-1/4", "w-1/5", "w-[16.667%]"] as const;

interface PagedCarouselProps {
  /** Each item is one card; keys come from the caller. */
  items: { key: string | number; node: ReactNode }[];
  /** How many items one page shows. */
  perView: number;
  /** The id of the heading that names the carousel, e.g. the category it shows. */
  labelledBy: string;
}

/**
 * A row of cards shown a page at a time; previous and next wrap around at both ends. Cards off the page are
 * inert, so keyboard and screen-reader users only meet what is on screen.
 */
export function PagedCarousel({ items, perView, labelledBy }: PagedCarouselProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const touchStart = useRef<number | null>(null);
  const size = Math.min(CARD_WIDTHS.length, Math.max(1, perView));
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(page, pageCount - 1);
  // The last page ends with the last card instead of leaving a gap.
  const start = Math.max(0, Math.min(current * size, items.length - size));

  const go = (delta: number) => setPage((current + delta + pageCount) % pageCount);

  const onTouchStart = (event: TouchEvent) => {
    touchStart.current = event.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const from = touchStart.current;
    const to = event.changedTouches[0]?.clientX;
    touchStart.current = null;
    if (from === null || to === undefined || Math.abs(to - from) < 40) return;
    go(to < from ? 1 : -1);
  };

  return (
    <section
      aria-roledescription={t("carousel.roleDescription")}
      aria-labelledby={labelledBy}
      className="relative"
      data-per-view={size}
    >
      <div className="-mx-2 overflow-hidden py-2" onTouchStart={onTouchStart} onTouchEnd={onTouchEnd}>
        <ul
          className="flex transition-transform duration-500 ease-out"
          // The server renders the first page, with no style attribute: the Content-Security-Policy refuses
          // those. React sets the later pages' transform through the DOM, which it allows.
          style={start === 0 ? undefined : { transform: `translateX(-${(start * 100) / size}%)` }}
        >
          {items.map((item, index) => {
            const visible = index >= start && index < start + size;
            // Cards more than a page away are drawn when the carousel gets near them, not up front.
            const near = index >= start - size && index < start + 2 * size;
            return (
              <li
                key={item.key}
                className={`shrink-0 px-2 ${CARD_WIDTHS[size - 1]}`}
                aria-hidden={!visible}
                inert={!visible}
                data-visible={visible}
              >
                {near ? item.node : null}
              </li>
            );
          })}
        </ul>
      </div>
      {pageCount > 1 && (
        <div className="mt-3 flex items-center justify-end gap-3">
          <p className="text-sm text-muted tabular-nums" aria-live="polite">
            {t("carousel.page", { page: current + 1, total: pageCount })}
          </p>
          <IconButton
            variant="floating"
            onClick={() => go(-1)}
            label={t("carousel.previous")}
            icon={<ChevronLeft size={20} aria-hidden />}
          />
          <IconButton
            variant="floating"
            onClick={() => go(1)}
            label={t("carousel.next")}
            icon={<ChevronRight size={20} aria-hidden />}
          />
        </div>
      )}
    </section>
  );
}

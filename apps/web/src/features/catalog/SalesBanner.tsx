import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { ChevronLeft, ChevronRight, Pause, Play } from "lucide-react";
import type { Sale } from "@voltio/domain/catalog";
import { saleLabel, saleRunsOn } from "@voltio/domain/discount";
import type { Weekday } from "@voltio/domain/weekday";
import { BANNER_INTERVAL_MS } from "@/components/timings";
import { Skeleton } from "@/components/ui/Skeleton";
import { categoryListingPath } from "@/components/paths";

/** docs/product-rules.md §12: the banner shows 4 slides. */
export const BANNER_SLIDES = 4;

/** Where a sale's slide leads: its product, its category, or the whole catalogue for a global sale. */
export function saleTarget(sale: Pick<Sale, "products" | "categories">): string {
  if (sale.products.length === 1) return `/product/${sale.products[0]!.id}`;
  if (sale.categories.length > 0) return categoryListingPath(sale.categories[0]!.id);
  return "/products?offset=1";
}

/** The slides, from the first sale that runs today: the banner opens on a price the shopper gets. */
export function bannerSlides(sales: Sale[], today: Weekday | undefined): Sale[] {
  const first = today === undefined ? -1 : sales.findIndex((sale) => saleRunsOn(sale, today));
  const ordered = first > 0 ? [...sales.slice(first), ...sales.slice(0, first)] : sales;
  return ordered.slice(0, BANNER_SLIDES);
}

interface SalesBannerProps {
  sales: Sale[] | undefined;
  today: Weekday | undefined;
}

/**
 * The sales banner (docs/product-rules.md §1): advances every 5 seconds, pauses while hovered (and while it holds the
 * keyboard focus, or when the shopper presses pause), and the arrows wrap around at both ends.
 */
export function SalesBanner({ sales, today }: SalesBannerProps) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [pause, setPause] = useState({ hovered: false, focused: false, stopped: false });
  // The timer reads this: it is set in the event handlers themselves, so a pause counts from the very event.
  const pauseNow = useRef(pause);
  const [manualSteps, setManualSteps] = useState(0);
  const slides = bannerSlides(sales ?? [], today);
  const count = slides.length;
  const current = count > 0 ? index % count : 0;
  const paused = pause.hovered || pause.focused || pause.stopped;

  const setPaused = (change: Partial<typeof pause>) => {
    pauseNow.current = { ...pauseNow.current, ...change };
    setPause(pauseNow.current);
  };

  useEffect(() => {
    if (paused || count < 2) return;
    // Restarted after a pause or a manual step, so the next slide always gets its full 5 seconds.
    const timer = setInterval(() => {
      const { hovered, focused, stopped } = pauseNow.current;
      if (!hovered && !focused && !stopped) setIndex((value) => (value + 1) % count);
    }, BANNER_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [paused, count, manualSteps]);

  if (!sales) return <Skeleton className="h-[22rem] w-full rounded-3xl sm:h-[20rem]" />;
  if (count === 0) return null;

  const show = (position: number) => {
    setIndex(position);
    setManualSteps((steps) => steps + 1);
  };
  const go = (delta: number) => show((current + delta + count) % count);

  return (
    <section
      aria-roledescription={t("carousel.roleDescription")}
      aria-label={t("home.salesBanner")}
      className="relative overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-600 via-indigo-700 to-violet-800 text-white shadow-lg dark:from-indigo-900 dark:via-indigo-950 dark:to-slate-900 dark:ring-1 dark:ring-white/10"
      onMouseEnter={() => setPaused({ hovered: true })}
      onMouseLeave={() => setPaused({ hovered: false })}
      onFocus={() => setPaused({ focused: true })}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setPaused({ focused: false });
      }}
      data-paused={paused}
    >
      <div
        className="flex transition-transform duration-700 ease-out"
        // The server renders the first slide, with no style attribute: the Content-Security-Policy refuses
        // those. React moves to the others through the DOM, which it allows.
        style={current === 0 ? undefined : { transform: `translateX(-${current * 100}%)` }}
      >
        {slides.map((sale, position) => {
          const label = saleLabel(sale);
          const active = position === current;
          const runsToday = sale.day === "all" || sale.day === today;
          return (
            <div
              key={sale.id}
              role="group"
              aria-roledescription={t("carousel.slide")}
              aria-label={t("carousel.slideOf", { index: position + 1, total: count })}
              aria-hidden={!active}
              inert={!active}
              data-active={active}
              className="grid min-h-[22rem] w-full shrink-0 grid-cols-1 items-center gap-4 px-6 pt-8 pb-20 sm:min-h-[20rem] sm:grid-cols-[1fr_auto] sm:px-12 sm:pt-10 lg:px-16"
            >
              <div className="max-w-xl">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-white/85">
                  <span className="rounded-full bg-white/15 px-3 py-1 font-semibold tracking-wide text-white uppercase">
                    {t(`home.saleDay.${sale.day}`)}
                  </span>
                  {runsToday && <span>{t("home.onToday")}</span>}
                </p>
                <p className="mt-4 text-4xl font-black tracking-tight sm:text-5xl">
                  {t("catalog.off", { percentage: label.percentage })}
                  {label.onUnit !== null && (
                    <span className="block text-2xl font-bold sm:text-3xl">
                      {t("catalog.onUnit", { unit: label.onUnit }).trim()}
                    </span>
                  )}
                </p>
                <h2 className="mt-3 text-lg font-semibold text-white/95 sm:text-xl">{sale.description}</h2>
                <Link
                  to={saleTarget(sale)}
                  className="mt-6 inline-flex items-center gap-2 rounded-xl bg-white px-5 py-3 text-sm font-bold text-indigo-700 shadow-sm transition hover:bg-white/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
                >
                  {t("home.shopNow")}
                  <ChevronRight size={18} aria-hidden />
                </Link>
              </div>
              <img
                src={sale.image}
                alt=""
                width={400}
                height={300}
                loading={position === 0 ? "eager" : "lazy"}
                fetchPriority={position === 0 ? "high" : "auto"}
                className="hidden w-72 rounded-2xl shadow-2xl ring-1 ring-white/20 sm:block lg:w-96"
              />
            </div>
          );
        })}
      </div>
      {count > 1 && (
        <div className="absolute right-4 bottom-4 left-4 flex items-center justify-between gap-3 sm:right-12 sm:bottom-5 sm:left-12 lg:right-16 lg:left-16">
          <div className="flex items-center gap-1.5">
            {slides.map((sale, position) => (
              <button
                key={sale.id}
                type="button"
                onClick={() => show(position)}
                aria-label={t("carousel.goToSlide", { index: position + 1 })}
                aria-current={position === current}
                className="grid h-6 w-6 place-items-center rounded-full focus-visible:outline-2 focus-visible:outline-white"
              >
                <span
                  className={`block h-2 rounded-full transition-all ${position === current ? "w-5 bg-white" : "w-2 bg-white/50"}`}
                />
              </button>
            ))}
          </div>
          <div className="flex items-center gap-2">
            <button
              type="button"
              onClick={() => setPaused({ stopped: !pauseNow.current.stopped })}
              aria-label={pause.stopped ? t("carousel.play") : t("carousel.pause")}
              className="grid h-10 w-10 place-items-center rounded-full bg-white/15 text-white backdrop-blur transition hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-white"
            >
              {pause.stopped ? <Play size={16} aria-hidden /> : <Pause size={16} aria-hidden />}
            </button>
            <button
              type="button"
              onClick={() => go(-1)}
              aria-label={t("carousel.previousSlide")}
              className="grid h-10 w-10 place-items-center rounded-full bg-white/15 text-white backdrop-blur transition hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-white"
            >
              <ChevronLeft size={20} aria-hidden />
            </button>
            <button
              type="button"
              onClick={() => go(1)}
              aria-label={t("carousel.nextSlide")}
              className="grid h-10 w-10 place-items-center rounded-full bg-white/15 text-white backdrop-blur transition hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-white"
            >
              <ChevronRight size={20} aria-hidden />
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

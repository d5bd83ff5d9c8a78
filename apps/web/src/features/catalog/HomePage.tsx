import { useDeferredValue } from "react";
import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { ArrowRight } from "lucide-react";
import { useCategories, usePricingContext, useSales } from "@/api/catalog";
import { NewsletterBlock } from "@/components/NewsletterBlock";
import { usePageTitle } from "@/components/page-title";
import { focusRingClass } from "@/components/ui/focus-ring";
import { useHomeCarousels } from "./api";
import { CategoryCarousels } from "./CategoryCarousels";
import { SalesBanner } from "./SalesBanner";
import { categoryListingPath } from "@/components/paths";

export function HomePage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.home"));
  // Every category for the carousels' draw (docs/product-rules.md §9: ids between 1 and their number); the shortcuts
  // offer only those with a product for sale, as the header's menu does.
  const categories = useCategories();
  const shopCategories = useCategories(undefined, { withProducts: true });
  const { data: sales } = useSales();
  const { today, globalSales } = usePricingContext();
  const categoriesSettled = !categories.isPending;
  const carousels = useHomeCarousels(categories.data?.length, categoriesSettled);

  // Three rows of cards: rendered in a low-priority pass that yields to the browser.
  const deferredPicks = useDeferredValue(carousels.data);

  return (
    <div className="flex flex-col gap-12">
      <h1 className="sr-only">{t("home.heading")}</h1>
      <SalesBanner sales={sales} today={today} />
      {shopCategories.data && shopCategories.data.length > 0 && (
        <nav aria-labelledby="home-categories">
          <div className="mb-4 flex items-end justify-between gap-4">
            <h2 id="home-categories" className="text-xl font-bold tracking-tight text-ink sm:text-2xl">
              {t("home.shopByCategory")}
            </h2>
            <Link
              to="/products?offset=1"
              className={`inline-flex shrink-0 items-center gap-1 rounded-lg text-sm font-semibold text-accent-strong hover:underline ${focusRingClass}`}
            >
              {t("catalog.allProducts")}
              <ArrowRight size={16} aria-hidden />
            </Link>
          </div>
          <ul className="-mx-4 flex snap-x scroll-px-4 gap-3 overflow-x-auto px-4 pb-2 [scrollbar-width:thin] lg:mx-0 lg:grid lg:grid-cols-8 lg:overflow-visible lg:px-0 lg:pb-0">
            {shopCategories.data.map((category) => (
              <li key={category.id} className="snap-start">
                <Link
                  to={categoryListingPath(category.id)}
                  className={`flex w-28 flex-col items-center gap-2 lg:w-full rounded-2xl border border-line bg-card p-3 text-center text-xs font-medium text-ink shadow-sm transition hover:border-accent hover:text-accent-strong ${focusRingClass}`}
                >
                  <img
                    src={category.image}
                    alt=""
                    width={80}
                    height={60}
                    loading="lazy"
                    className="h-14 w-20 rounded-lg object-contain"
                  />
                  {category.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <CategoryCarousels
        picks={deferredPicks}
        categories={categories.data}
        globalSales={globalSales}
        today={today}
        // Only while the draw's products are on their way: no fixed wait of its own (ADR 0017).
        loading={!deferredPicks}
      />
      <NewsletterBlock />
    </div>
  );
}

export default HomePage;

import { useDeferredValue, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useTranslation } from "@/i18n";
import { SlidersHorizontal } from "lucide-react";
import { useCategories, useProducts } from "@/api/catalog";
import { useStoreInfo } from "@/api/store";
import { LISTING_GRID_DELAY_MS } from "@/components/timings";
import { usePageTitle } from "@/components/page-title";
import { ProductTile } from "@/components/ui/ProductTile";
import { Button, buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { ProductTileSkeleton } from "@/components/ui/Skeleton";
import { useElapsedSince } from "@/components/use-delay";
import { FilterPanel } from "./FilterPanel";
import { filtersFrom } from "./listing-query";
import { NoResults } from "./NoResults";
import { Pagination } from "./Pagination";
import { LoadError } from "@/components/LoadError";

/** SPEC.md §2, §9: a loading skeleton of 10 cards. */
export const LISTING_SKELETON_CARDS = 10;

const gridClass = "grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4";

export function ProductListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filters = filtersFrom(params);
  const products = useProducts(filters);
  const categories = useCategories();
  const { data: store } = useStoreInfo();
  // SPEC.md §2: the grid appears 1.5 seconds after the categories load.
  const gridReady = useElapsedSince(!categories.isPending, LISTING_GRID_DELAY_MS);
  const category = categories.data?.find((item) => item.id === filters.categoryId);
  const heading = category
    ? category.name
    : filters.search
      ? t("listing.resultsFor", { search: filters.search })
      : t("catalog.allProducts");
  usePageTitle(t("titles.page", { page: category?.name ?? filters.search ?? t("titles.products") }));

  // The grid renders in a low-priority pass that yields to the browser (a page of cards is the heaviest render).
  const data = useDeferredValue(products.data);
  const showGrid = gridReady && data !== undefined;
  const activeFilters = [filters.minPrice, filters.maxPrice, filters.freeShipping, filters.order].filter(
    (value) => value !== undefined,
  ).length;
  const apply = (next: URLSearchParams) => setParams(next);

  return (
    <div>
      <nav aria-label={t("listing.breadcrumb")} className="mb-3 text-sm text-muted">
        <ol className="flex flex-wrap items-center gap-1.5">
          <li>
            <Link to="/" className="hover:text-accent-strong hover:underline">
              {t("nav.home")}
            </Link>
          </li>
          <li aria-hidden>/</li>
          <li>
            <Link to="/products?offset=1" className="hover:text-accent-strong hover:underline">
              {t("nav.products")}
            </Link>
          </li>
          {category && (
            <>
              <li aria-hidden>/</li>
              <li aria-current="page" className="text-ink">
                {category.name}
              </li>
            </>
          )}
        </ol>
      </nav>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{heading}</h1>
          <p className="mt-1 text-sm text-muted" aria-live="polite">
            {showGrid ? t("catalog.results", { count: data.total }) : "\u00a0"}
          </p>
        </div>
        <Button
          variant="secondary"
          aria-expanded={filtersOpen}
          aria-controls="listing-filters"
          onClick={() => setFiltersOpen((open) => !open)}
          className="text-sm lg:hidden"
        >
          <SlidersHorizontal size={18} aria-hidden />
          {t("listing.filters")}
          {activeFilters > 0 && (
            <span className="grid h-5 min-w-5 place-items-center rounded-full bg-accent px-1 text-xs text-on-accent">
              {activeFilters}
            </span>
          )}
        </Button>
      </div>

      <div className="grid gap-8 lg:grid-cols-[16rem_1fr]">
        <Card
          as="aside"
          raised
          id="listing-filters"
          aria-label={t("listing.filters")}
          className={`${filtersOpen ? "block" : "hidden"} self-start p-5 lg:sticky lg:top-24 lg:block`}
        >
          <h2 className="sr-only text-base font-bold text-ink lg:not-sr-only lg:mb-5 lg:block">
            {t("listing.filters")}
          </h2>
          <FilterPanel params={params} onChange={apply} />
        </Card>

        <section aria-labelledby="listing-results" aria-busy={!showGrid || products.isPlaceholderData}>
          <h2 id="listing-results" className="sr-only">
            {t("listing.results")}
          </h2>
          {products.isError && data === undefined ? (
            <Card className="p-8">
              <LoadError onRetry={() => void products.refetch()} />
            </Card>
          ) : !showGrid ? (
            <div className={gridClass} data-testid="listing-skeleton">
              {Array.from({ length: LISTING_SKELETON_CARDS }, (_, index) => (
                <ProductTileSkeleton key={index} />
              ))}
            </div>
          ) : data.products.length === 0 ? (
            <NoResults>
              <Link to="/products?offset=1" className={buttonClass({ size: "md", className: "mt-6" })}>
                {t("catalog.allProducts")}
              </Link>
            </NoResults>
          ) : (
            <>
              <ul
                className={`${gridClass} transition-opacity ${products.isPlaceholderData ? "opacity-60" : ""}`}
              >
                {data.products.map((product, index) => (
                  <li key={product.id}>
                    <ProductTile
                      product={product}
                      globalSales={data.globalSales}
                      today={store?.today}
                      eager={index < 4}
                    />
                  </li>
                ))}
              </ul>
              <Pagination params={params} page={data.page} total={data.totalPages} />
            </>
          )}
        </section>
      </div>
    </div>
  );
}

export default ProductListPage;

import { useDeferredValue, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { loadTexts, useTranslation } from "@/i18n";
import { lazySection } from "@/components/lazy-section";
import { SlidersHorizontal } from "lucide-react";
import { useCategories } from "@/api/catalog";
import { useStoreInfo } from "@/api/store";
import { usePageTitle } from "@/components/page-title";
import { Button, buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { ProductTileSkeleton } from "@/components/ui/Skeleton";
import { SEARCH_MAX_LENGTH, searchTooLong } from "@voltio/domain/listing";
import { ApiError } from "@/api/client";
import { FilterPanel } from "./FilterPanel";
import { filtersFrom, withPage } from "./listing-query";
import { NoResults } from "./NoResults";
import { Pagination } from "./Pagination";
import { LoadError } from "@/components/LoadError";
import { lazyDialog } from "@/components/lazy-dialog";
import { useWindowWidth } from "@/components/use-window-width";
import { useFacets, useListing } from "./listing-api";
import { ListingTile } from "./ListingTile";

// Issue 41's parts (facet filters, the compare link, the phone's filter sheet) come after the page's code,
// each with the catalogue's texts: the listing's first script stays within the storefront's budget (ADR 0006).
const withCatalogueTexts = <T,>(load: Promise<T>) =>
  Promise.all([load, loadTexts("catalogue")]).then(([loaded]) => loaded);
const FacetFilters = lazySection(() =>
  withCatalogueTexts(import("./FacetFilters").then((module) => module.FacetFilters)),
);
const CompareLink = lazySection(() =>
  withCatalogueTexts(import("./CompareLink").then((module) => module.CompareLink)),
);
// The phone's filter sheet: its dialog code comes the first time it opens.
const FilterSheet = lazyDialog(() =>
  withCatalogueTexts(import("./FilterSheet").then((module) => module.default)),
);
/** Below this width (Tailwind's lg) the filters are a sheet behind the Filters button. */
const SHEET_BELOW = 1024;

/** docs/product-rules.md §1, §12: a loading skeleton of 10 cards. */
export const LISTING_SKELETON_CARDS = 10;

const gridClass = "grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4";

export function ProductListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filters = filtersFrom(params);
  // Longer than the API takes: said at once, without a request that could only be refused.
  const tooLong = searchTooLong(filters.search);
  const products = useListing(params, { enabled: !tooLong });
  const facets = useFacets(params, { enabled: !tooLong });
  const phone = useWindowWidth() < SHEET_BELOW;
  // Every category, also one with nothing for sale: the heading names it, and an unknown id is said so.
  const categories = useCategories();
  const { data: store } = useStoreInfo();
  const category = categories.data?.find((item) => item.id === filters.categoryId);
  const unknownCategory = filters.categoryId !== undefined && categories.isSuccess && !category;
  const heading = tooLong
    ? t("listing.searchTooLong")
    : unknownCategory
      ? t("listing.categoryMissing")
      : category
        ? category.name
        : filters.search
          ? t("listing.resultsFor", { search: filters.search })
          : t("catalog.allProducts");
  usePageTitle(
    t("titles.page", {
      page: tooLong || unknownCategory ? heading : (category?.name ?? filters.search ?? t("titles.products")),
    }),
  );

  // The grid renders in a low-priority pass that yields to the browser (a page of cards is the heaviest render).
  // No delay of its own: a server-rendered or cached page shows its products at once, a skeleton shows only
  // while the products are on their way (ADR 0017).
  const data = useDeferredValue(products.data);
  const refused = products.error instanceof ApiError && products.error.status < 500 ? products.error : null;
  const pastLastPage = data !== undefined && data.products.length === 0 && data.page > data.totalPages;
  // A search too long asks nothing (its disabled query keeps the last page as a placeholder): not busy.
  const busy =
    !tooLong && !unknownCategory && ((data === undefined && !products.isError) || products.isPlaceholderData);
  const counted = data !== undefined && !tooLong && !unknownCategory && !pastLastPage;
  const allProductsLink = (
    <Link to="/products?offset=1" className={buttonClass({ size: "md", className: "mt-6" })}>
      {t("catalog.allProducts")}
    </Link>
  );

  const results = () => {
    if (tooLong)
      return (
        <NoResults
          title={t("listing.searchTooLong")}
          hint={t("listing.searchTooLongHint", {
            max: SEARCH_MAX_LENGTH,
            length: filters.search?.length ?? 0,
          })}
        >
          {allProductsLink}
        </NoResults>
      );
    if (unknownCategory)
      return (
        <NoResults
          title={t("listing.categoryMissing")}
          hint={t("listing.categoryMissingHint", { id: filters.categoryId ?? "" })}
        >
          {allProductsLink}
        </NoResults>
      );
    if (products.isError && data === undefined)
      return refused ? (
        // The server's own words: which field and why (a price filter the API refuses, for one).
        <NoResults title={t("listing.refused")} hint={refused.message}>
          {allProductsLink}
        </NoResults>
      ) : (
        <Card className="p-8">
          <LoadError onRetry={() => void products.refetch()} />
        </Card>
      );
    if (data === undefined)
      return (
        <div className={gridClass} data-testid="listing-skeleton">
          {Array.from({ length: LISTING_SKELETON_CARDS }, (_, index) => (
            <ProductTileSkeleton key={index} />
          ))}
        </div>
      );
    if (pastLastPage && data.totalPages > 0)
      return (
        <NoResults
          title={t("listing.pageMissing", { page: data.page })}
          hint={t("listing.pageMissingHint", { count: data.totalPages })}
        >
          <Link
            to={`/products?${withPage(params, data.totalPages).toString()}`}
            className={buttonClass({ size: "md", className: "mt-6" })}
          >
            {t("listing.lastPage", { page: data.totalPages })}
          </Link>
        </NoResults>
      );
    if (data.products.length === 0) return <NoResults>{allProductsLink}</NoResults>;
    return (
      <>
        <ul className={`${gridClass} transition-opacity ${products.isPlaceholderData ? "opacity-60" : ""}`}>
          {data.products.map((product, index) => (
            <li key={product.id}>
              <ListingTile
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
    );
  };
  const activeFilters =
    [filters.minPrice, filters.maxPrice, filters.freeShipping, filters.order].filter(
      (value) => value !== undefined,
    ).length +
    // The facet filters (issue 41), as the page's query reads them.
    (filters.brand?.length ?? 0) +
    Object.values(filters.spec ?? {}).flat().length +
    (filters.minRating === undefined ? 0 : 1) +
    (filters.inStock ? 1 : 0);
  // A filter applies at once and keeps the scroll: in the phone's sheet the grid behind follows.
  const apply = (next: URLSearchParams) => setParams(next, { preventScrollReset: true });
  const filterControls = (
    <>
      <FilterPanel params={params} onChange={apply} />
      <FacetFilters params={params} reply={facets.data} onChange={apply} />
    </>
  );

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
          <h1 className="text-2xl font-bold tracking-tight break-words text-ink sm:text-3xl">{heading}</h1>
          <p className="mt-1 text-sm text-muted" aria-live="polite">
            {counted && data ? t("catalog.results", { count: data.total }) : "\u00a0"}
          </p>
          <CompareLink />
        </div>
        <Button
          variant="secondary"
          aria-expanded={filtersOpen}
          aria-haspopup="dialog"
          onClick={() => setFiltersOpen(true)}
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
          className="hidden self-start p-5 lg:sticky lg:top-24 lg:block"
        >
          <h2 className="mb-5 text-base font-bold text-ink">{t("listing.filters")}</h2>
          {/* One set of filter controls at a time: the panel's on a wide screen, the sheet's on a phone. */}
          {!(phone && filtersOpen) && <div className="flex flex-col gap-7">{filterControls}</div>}
        </Card>
        <FilterSheet
          open={filtersOpen}
          onOpenChange={setFiltersOpen}
          total={counted ? data?.total : undefined}
        >
          {filterControls}
        </FilterSheet>

        <section aria-labelledby="listing-results" aria-busy={busy}>
          <h2 id="listing-results" className="sr-only">
            {t("listing.results")}
          </h2>
          {results()}
        </section>
      </div>
    </div>
  );
}

export default ProductListPage;

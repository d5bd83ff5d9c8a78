import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { ArrowRight } from "lucide-react";
import type { Category, Product } from "@voltio/domain/catalog";
import type { SaleTerms } from "@voltio/domain/discount";
import type { Weekday } from "@voltio/domain/weekday";
import { ProductTile } from "@/components/ui/ProductTile";
import { PagedCarousel } from "@/components/ui/PagedCarousel";
import { ProductTileSkeleton, Skeleton } from "@/components/ui/Skeleton";
import { useWindowWidth } from "@/components/use-window-width";
import { focusRingClass } from "@/components/ui/focus-ring";
import type { CarouselPick } from "./carousel-categories";
import { homeCarouselPerView } from "./per-view";
import { categoryListingPath } from "@/components/paths";

/** The skeleton's columns for each number of cards a page shows (homeCarouselPerView: 1 to 4), as classes. */
const SKELETON_COLUMNS = ["grid-cols-1", "grid-cols-2", "grid-cols-3", "grid-cols-4"] as const;

interface CategoryCarouselsProps {
  picks: CarouselPick<Product>[] | undefined;
  categories: Category[] | undefined;
  globalSales: readonly SaleTerms[];
  today: Weekday | undefined;
  loading: boolean;
}

export function CategoryCarousels({
  picks,
  categories,
  globalSales,
  today,
  loading,
}: CategoryCarouselsProps) {
  const { t } = useTranslation();
  const perView = homeCarouselPerView(useWindowWidth());

  if (loading || !picks) {
    return (
      <div aria-busy="true" aria-label={t("common.loading")} role="status" className="flex flex-col gap-12">
        {[0, 1, 2].map((row) => (
          <div key={row} data-testid="carousel-skeleton">
            <Skeleton className="mb-5 h-7 w-48" />
            <div className={`grid gap-4 ${SKELETON_COLUMNS[perView - 1]}`}>
              {Array.from({ length: perView }, (_, card) => (
                <ProductTileSkeleton key={card} />
              ))}
            </div>
          </div>
        ))}
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-12">
      {picks.map((pick) => {
        const name =
          categories?.find((category) => category.id === pick.categoryId)?.name ??
          pick.products[0]?.categories.find((category) => category.id === pick.categoryId)?.name ??
          "";
        return (
          <div key={pick.categoryId}>
            <div className="mb-3 flex items-end justify-between gap-4">
              <h2
                id={`carousel-${pick.categoryId}`}
                className="text-xl font-bold tracking-tight text-ink sm:text-2xl"
              >
                {name}
              </h2>
              <Link
                to={categoryListingPath(pick.categoryId)}
                className={`inline-flex shrink-0 items-center gap-1 rounded-lg text-sm font-semibold text-accent-strong hover:underline ${focusRingClass}`}
              >
                {t("home.seeAll")}
                <span className="sr-only">: {name}</span>
                <ArrowRight size={16} aria-hidden />
              </Link>
            </div>
            <PagedCarousel
              labelledBy={`carousel-${pick.categoryId}`}
              perView={perView}
              items={pick.products.map((product) => ({
                key: product.id,
                node: <ProductTile product={product} globalSales={globalSales} today={today} />,
              }))}
            />
          </div>
        );
      })}
    </div>
  );
}

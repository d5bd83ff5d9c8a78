import { useDeferredValue, useMemo } from "react";
import { useTranslation } from "@/i18n";
import type { Product } from "@voltio/domain/catalog";
import { useCategoryNeighbours } from "./api";
import { ProductTile } from "@/components/ui/ProductTile";
import { PagedCarousel } from "@/components/ui/PagedCarousel";
import { useWindowWidth } from "@/components/use-window-width";
import type { Weekday } from "@voltio/domain/weekday";
import { relatedPageSize, showsRelated } from "./related-page-size";

/** Products sharing a category with this one, a page at a time, wrapping (docs/product-rules.md §1). */
export function RelatedProducts({ product, today }: { product: Product; today: Weekday | undefined }) {
  const { t } = useTranslation();
  const perView = relatedPageSize(useWindowWidth());
  const neighbours = useCategoryNeighbours(product);
  const related = useMemo(
    () => neighbours.products.filter((item) => item.id !== product.id),
    [neighbours.products, product.id],
  );
  // Rendered in a low-priority pass that yields to the browser, after the product itself is on screen.
  const deferred = useDeferredValue(related);
  const globalSales = neighbours.globalSales;
  if (!showsRelated(deferred.length)) return null;
  return (
    <div>
      <h2 id="related-heading" className="mb-3 text-xl font-bold tracking-tight text-ink">
        {t("product.related")}
      </h2>
      <PagedCarousel
        labelledBy="related-heading"
        perView={perView}
        items={deferred.map((item) => ({
          key: item.id,
          node: <ProductTile product={item} globalSales={globalSales} today={today} />,
        }))}
      />
    </div>
  );
}

import type { ComponentProps } from "react";
import type { Product } from "@voltio/domain/catalog";
import { ProductTile } from "@/components/ui/ProductTile";
import { useTranslation } from "@/i18n";

/** Swatches a card shows before '+n'. */
const SWATCHES = 5;

/** Whether the product's variants differ in price: its card says 'From' its lowest. */
export const pricesDiffer = (product: Pick<Product, "variants">) =>
  new Set(product.variants.map((variant) => variant.price)).size > 1;

/**
 * The values of its Colour option, if it has one. variants.ts isColourOption's rule, written here: importing
 * that module would add a chunk to the listing's first script (its weight budget).
 */
export const colourValues = (product: Pick<Product, "options">) =>
  product.options.find((option) => /^colou?r$/i.test(option.name.trim()))?.values ?? [];

/**
 * A listing card (issue 41 point 4): one per product, whatever its variants; 'From' its lowest price when
 * they differ, and its colours as swatches (named for screen readers) where it has a Colour option.
 */
export function ListingTile(props: Omit<ComponentProps<typeof ProductTile>, "extra"> & { product: Product }) {
  const { t } = useTranslation();
  const colours = colourValues(props.product);
  const from = pricesDiffer(props.product);
  const extra =
    colours.length > 0 || from ? (
      <>
        {colours.length > 0 && (
          <p className="flex items-center gap-1">
            <span className="sr-only">
              {t("listing.colours")}: {colours.join(", ")}
            </span>
            {colours.slice(0, SWATCHES).map((colour) => (
              <span
                key={colour}
                aria-hidden
                title={colour}
                data-swatch={colour.trim().toLowerCase()}
                className="h-3.5 w-3.5 rounded-full border border-line"
              />
            ))}
            {colours.length > SWATCHES && (
              <span aria-hidden className="text-xs text-muted">
                {t("listing.moreColours", { count: colours.length - SWATCHES })}
              </span>
            )}
          </p>
        )}
        {from && <span className="-mb-1.5 text-xs font-medium text-muted">{t("listing.from")}</span>}
      </>
    ) : undefined;
  return <ProductTile {...props} extra={extra} />;
}

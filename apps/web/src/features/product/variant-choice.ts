import type { Product, Variant } from "@voltio/domain/catalog";
import type { SaleTerms } from "@voltio/domain/discount";
import { priceToday, type PriceToday } from "@voltio/domain/pricing";
import { defaultVariant } from "@voltio/domain/variants";
import type { Weekday } from "@voltio/domain/weekday";

/** The URL's `?variant=` as an id, if it is one. */
export function variantParam(params: URLSearchParams): number | undefined {
  const id = Number(params.get("variant"));
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/**
 * The variant the page shows: the URL's (shareable, and what the server renders first), else the first with
 * stock, else the first. A product without options has its default variant only.
 */
export function chosenVariant(
  product: Pick<Product, "variants">,
  params: URLSearchParams,
): Variant | undefined {
  return defaultVariant(product.variants, variantParam(params));
}

/** The query with the chosen variant; the other parameters (a campaign's, say) stay. */
export function withVariant(params: URLSearchParams, variantId: number): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set("variant", String(variantId));
  return next;
}

const NO_SALES: Product["sales"] = { productSales: [], categorySales: [] };

/** A variant's price today: its own price, discounted by the sales only when it is sale-eligible. */
export function variantPriceToday(
  product: Pick<Product, "sales">,
  variant: Pick<Variant, "price" | "saleEligible">,
  globalSales: readonly SaleTerms[],
  today: Weekday | undefined,
): PriceToday {
  return variant.saleEligible
    ? priceToday({ price: variant.price, sales: product.sales }, globalSales, today)
    : priceToday({ price: variant.price, sales: NO_SALES }, [], today);
}

/** The pictures a variant is shown with: its own, else the product's. */
export function variantImages(
  product: Pick<Product, "images">,
  variant: Pick<Variant, "images"> | undefined,
) {
  return variant && variant.images.length > 0 ? variant.images : product.images;
}

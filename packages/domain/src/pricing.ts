import { bestSale, discountedUnitCents, lineTotalCents, type ProductSales, type SaleTerms } from "./discount";
import { toCents } from "./money";
import type { Weekday } from "./weekday";

/** What a product costs today: the storefront shows it, the JSON-LD states it, the cart multiplies it. */
export interface PriceToday {
  /** The sale that applies today (docs/product-rules.md §12: highest percentage among product, category and global sales). */
  sale: SaleTerms | null;
  originalCents: number;
  /** What one unit costs: discounted only when the sale applies to every unit (productAmount 0). */
  unitCents: number;
}

/**
 * A product's price on the store's weekday. A sale on the n-th unit does not lower the price of a single
 * unit: the full price stands and the badge says which unit is discounted. Without a weekday (not known
 * yet) no sale applies.
 */
export function priceToday(
  product: { price: number; sales: ProductSales },
  globalSales: readonly SaleTerms[],
  today: Weekday | undefined,
): PriceToday {
  const sale = today ? bestSale(product.sales, globalSales, today) : null;
  const originalCents = toCents(product.price);
  const unitCents =
    sale && sale.productAmount === 0 ? discountedUnitCents(originalCents, sale) : originalCents;
  return { sale, originalCents, unitCents };
}

/** A cart line: the unit price times the amount, with the sale's 'on Nth unit' rule, rounded once. */
export function linePriceCents(price: PriceToday, amount: number): number {
  return lineTotalCents(price.originalCents, amount, price.sale);
}

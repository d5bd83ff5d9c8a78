import type { Product } from "@voltio/domain/catalog";
import { bestSale, discountedUnitCents, type SaleTerms } from "@voltio/domain/discount";
import { toCents } from "@voltio/domain/money";
import type { Weekday } from "@voltio/domain/weekday";

export interface Pricing {
  sale: SaleTerms | null;
  originalCents: number;
  /** What one unit costs: discounted only when the sale applies to every unit (productAmount 0). */
  unitCents: number;
}

/**
 * A product's price as the server will charge it (packages/domain, the same code). A sale on the n-th unit
 * does not lower the price of a single unit, so the card shows the full price and the badge says which
 * unit is discounted, instead of a misleading "US$ 0.00" for a "third one free" offer.
 */
export function pricingOf(
  product: Pick<Product, "price" | "sales">,
  globalSales: readonly SaleTerms[],
  today: Weekday | undefined,
): Pricing {
  const sale = today ? bestSale(product.sales, globalSales, today) : null;
  const originalCents = toCents(product.price);
  const unitCents =
    sale && sale.productAmount === 0 ? discountedUnitCents(originalCents, sale) : originalCents;
  return { sale, originalCents, unitCents };
}

/** "US$ 1234.50": US dollars with 2 decimals everywhere (SPEC.md §9). */
export function usd(cents: number): string {
  return `US$ ${(cents / 100).toFixed(2)}`;
}

import { roundHalfUp } from "./money";
import type { SaleDay, Weekday } from "./weekday";

/** The part of a sale that prices need. */
export interface SaleTerms {
  id: number;
  percentage: number;
  day: SaleDay;
  /** 0: every unit is discounted. n > 0: one unit in every n + 1 is discounted. */
  productAmount: number;
}

export interface ProductSales {
  productSales: SaleTerms[];
  categorySales: SaleTerms[];
}

export function saleRunsOn(sale: SaleTerms, today: Weekday): boolean {
  return sale.day === "all" || sale.day === today;
}

/**
 * Among the product's own sales, its categories' sales and the global sales that run today, the highest
 * percentage wins. Ties go to the sale that discounts more units (smaller productAmount), then the oldest.
 */
export function bestSale(
  sales: ProductSales,
  globalSales: readonly SaleTerms[],
  today: Weekday,
): SaleTerms | null {
  let best: SaleTerms | null = null;
  for (const sale of [...sales.productSales, ...sales.categorySales, ...globalSales]) {
    if (!saleRunsOn(sale, today)) continue;
    if (
      !best ||
      sale.percentage > best.percentage ||
      (sale.percentage === best.percentage &&
        (sale.productAmount < best.productAmount ||
          (sale.productAmount === best.productAmount && sale.id < best.id)))
    ) {
      best = sale;
    }
  }
  return best;
}

/** How many units of a line get the discount: all of them, or one in every productAmount + 1. */
export function discountedUnits(amount: number, sale: SaleTerms): number {
  if (sale.productAmount === 0) return amount;
  return Math.floor(amount / (sale.productAmount + 1));
}

/** The total of a line in cents: rounded half-up once, at the line. */
export function lineTotalCents(unitPriceCents: number, amount: number, sale: SaleTerms | null): number {
  if (!sale) return unitPriceCents * amount;
  const discounted = discountedUnits(amount, sale);
  return roundHalfUp((unitPriceCents * (amount * 100 - discounted * sale.percentage)) / 100);
}

/** The price of one discounted unit in cents: what the storefront shows beside the struck-through original. */
export function discountedUnitCents(unitPriceCents: number, sale: SaleTerms | null): number {
  if (!sale) return unitPriceCents;
  return roundHalfUp((unitPriceCents * (100 - sale.percentage)) / 100);
}

/** '{percentage}% OFF', plus 'on {n+1}º unit' when the sale needs more units. */
export function saleLabel(sale: SaleTerms): { percentage: number; onUnit: number | null } {
  return { percentage: sale.percentage, onUnit: sale.productAmount > 0 ? sale.productAmount + 1 : null };
}

/** A sale tied to no product and no category applies to the whole store. */
export function globalSalesOf<T extends { categories: unknown[]; products: unknown[] }>(sales: T[]): T[] {
  return sales.filter((sale) => sale.categories.length === 0 && sale.products.length === 0);
}

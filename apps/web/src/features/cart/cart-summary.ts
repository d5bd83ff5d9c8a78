import { checkoutTotals } from "@voltio/domain/checkout";
import type { ListLine } from "@/api/list-lines";

/** The cart's three figures, by the one money rule every screen uses (ADR 0015: shipping adds up). */
export interface CartSummary {
  /** The sum of the line totals; null while a line's price is still unknown. */
  productsCents: number | null;
  /** Every line's shipping, summed: each product ships on its own. */
  shippingCents: number;
  /** Products and shipping; null while a line's price is still unknown. */
  totalCents: number | null;
}

export function cartSummary(lines: readonly Pick<ListLine, "shippingCents" | "totalCents">[]): CartSummary {
  const known = lines.every((line) => line.totalCents !== null);
  const totals = checkoutTotals(
    lines.map((line) => ({ lineTotalCents: line.totalCents ?? 0, shippingCents: line.shippingCents })),
  );
  return {
    productsCents: known ? totals.productsCents : null,
    shippingCents: totals.shippingCents,
    totalCents: known ? totals.totalCents : null,
  };
}

/** "12.5" dollars as the SPEC writes money: 2 decimals, from integer cents. */
export const dollarsText = (cents: number) => (cents / 100).toFixed(2);

import type { ListLine } from "@/api/list-lines";

export interface CartSummary {
  /** SPEC.md §9: the cart's shipping is the highest shipping among its lines, not their sum. */
  shippingCents: number;
  /** The sum of the line totals; null while a line's price is still unknown. */
  totalCents: number | null;
}

export function cartSummary(lines: readonly Pick<ListLine, "shippingCents" | "totalCents">[]): CartSummary {
  let shippingCents = 0;
  let totalCents: number | null = 0;
  for (const line of lines) {
    shippingCents = Math.max(shippingCents, line.shippingCents);
    totalCents = totalCents === null || line.totalCents === null ? null : totalCents + line.totalCents;
  }
  return { shippingCents, totalCents };
}

/** "12.5" dollars as the SPEC writes money: 2 decimals, from integer cents. */
export const dollarsText = (cents: number) => (cents / 100).toFixed(2);

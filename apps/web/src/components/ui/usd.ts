/** "US$ 1234.50": US dollars with 2 decimals everywhere (docs/product-rules.md §12). */
export function usd(cents: number): string {
  return `US$ ${(cents / 100).toFixed(2)}`;
}

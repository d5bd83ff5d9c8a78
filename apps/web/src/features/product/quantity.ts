/** The most a shopper may put in the cart at once: the variant's stock (none when sold out). */
export function clampQuantity(quantity: number, stock: number): number {
  if (stock <= 0) return 1;
  return Math.min(Math.max(1, Math.floor(quantity) || 1), stock);
}

/**
 * docs/product-rules.md §1: the related carousel shows 2 products from 300 to 768 px of window width, 3 up to 830, 4 up to
 * 1450 and 5 above. Narrower than 300 px one card is all that fits.
 */
export function relatedPageSize(windowWidth: number): number {
  if (windowWidth >= 1450) return 5;
  if (windowWidth >= 830) return 4;
  if (windowWidth >= 768) return 3;
  if (windowWidth >= 300) return 2;
  return 1;
}

/** docs/product-rules.md §1: the carousel is shown only when more than 3 related products exist. */
export function showsRelated(count: number): boolean {
  return count > 3;
}

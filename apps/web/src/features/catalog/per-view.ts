/** docs/product-rules.md §1: home carousels show 4 per view, 3 under 1024 px, 2 under 600 px, 1 under 480 px. */
export function homeCarouselPerView(windowWidth: number): number {
  if (windowWidth < 480) return 1;
  if (windowWidth < 600) return 2;
  if (windowWidth < 1024) return 3;
  return 4;
}

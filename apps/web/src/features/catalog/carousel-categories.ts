/**
 * docs/product-rules.md §1, §9: the home page shows three product carousels of distinct random categories. Category ids
 * are drawn between 1 and the number of categories (16 when that is unknown); a category with 1 to 4
 * products is drawn again, and a carousel is shown only with more than 4 products.
 */
export const HOME_CAROUSELS = 3;
export const FALLBACK_CATEGORY_COUNT = 16;
export const CAROUSEL_MIN_PRODUCTS = 5;

export interface CategoryProducts<T> {
  total: number;
  products: T[];
}

export interface CarouselPick<T> extends CategoryProducts<T> {
  categoryId: number;
}

/** Drawn again: too few products to fill a carousel. Empty ids (a deleted category) are drawn again too. */
export function needsRedraw(total: number): boolean {
  return total < CAROUSEL_MIN_PRODUCTS;
}

export function showsCarousel(total: number): boolean {
  return total > 4;
}

/**
 * Draws distinct category ids and loads each; a redraw takes an id not tried yet, so this ends even when
 * no category qualifies. Loads run in parallel, a round per redraw, and picks keep their draw order.
 */
export async function pickCarouselCategories<T>({
  categoryCount,
  load,
  random = Math.random,
  wanted = HOME_CAROUSELS,
}: {
  categoryCount: number | undefined;
  load: (categoryId: number) => Promise<CategoryProducts<T>>;
  random?: () => number;
  wanted?: number;
}): Promise<CarouselPick<T>[]> {
  const count = categoryCount && categoryCount > 0 ? categoryCount : FALLBACK_CATEGORY_COUNT;
  const untried = Array.from({ length: count }, (_, index) => index + 1);
  const draw = () => untried.splice(Math.floor(random() * untried.length), 1)[0]!;
  const picks: CarouselPick<T>[] = [];
  let round = Array.from({ length: Math.min(wanted, untried.length) }, draw);
  while (round.length > 0) {
    const loaded = await Promise.all(
      // A category that fails to load is drawn again like an empty one, instead of hiding every carousel.
      round.map(async (categoryId) => ({
        categoryId,
        ...(await load(categoryId).catch(() => ({ total: 0, products: [] as T[] }))),
      })),
    );
    let redraws = 0;
    for (const pick of loaded) {
      if (needsRedraw(pick.total)) redraws++;
      else picks.push(pick);
    }
    round = Array.from({ length: Math.min(redraws, untried.length) }, draw);
  }
  return picks.filter((pick) => showsCarousel(pick.total));
}

import { useQuery } from "@tanstack/react-query";
import { fetchProducts } from "@/api/catalog";
import { pickCarouselCategories } from "./carousel-categories";

/** A carousel needs a few pages of cards, not the whole category: the count decides whether it shows. */
const CAROUSEL_PRODUCTS = 12;

/**
 * The home page's carousels: random categories drawn among `categoryCount`, each with its first products.
 * Drawn once the category list has settled (`enabled`).
 */
export function useHomeCarousels(categoryCount: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ["home-carousels", categoryCount ?? null],
    queryFn: ({ signal }) =>
      pickCarouselCategories({
        categoryCount,
        load: (categoryId) => fetchProducts({ categoryId, limit: CAROUSEL_PRODUCTS, offset: 1 }, signal),
      }),
    enabled,
    // The draw is random: keep it while the shopper goes back and forth, instead of reshuffling.
    staleTime: Infinity,
  });
}

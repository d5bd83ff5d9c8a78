import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ProductList } from "@voltio/domain/catalog";
import { listingApiPath, listingFacetsPath } from "@voltio/domain/listing";
import { fetchProducts } from "@/api/catalog";
import { bootReply } from "@/api/boot-data";
import { ApiError, apiFetch } from "@/api/client";
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

/**
 * A listing page's products, asked under the path the server's render embeds (listingApiPath): the facet
 * filters repeat parameters (`brand=a&brand=b`), which the shared filters object can't write.
 */
export function useListing(params: URLSearchParams, { enabled = true }: { enabled?: boolean } = {}) {
  const path = listingApiPath(params);
  return useQuery({
    queryKey: ["products", "listing", path],
    queryFn: ({ signal }) => apiFetch<ProductList>(path, { signal }),
    ...bootReply<ProductList>(path),
    placeholderData: keepPreviousData,
    // A refused question (400: a search too long, a bad price) gets the same answer again: say it at once.
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 3,
    enabled,
  });
}

/** The filter panel's counts per value (issue 41), under every other active filter; server-rendered too. */
export function useFacets(params: URLSearchParams, { enabled = true }: { enabled?: boolean } = {}) {
  const path = listingFacetsPath(params);
  return useQuery({
    queryKey: ["products", "facets", path],
    queryFn: ({ signal }) => apiFetch<ProductList>(path, { signal }),
    ...bootReply<ProductList>(path),
    placeholderData: keepPreviousData,
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 3,
    enabled,
  });
}

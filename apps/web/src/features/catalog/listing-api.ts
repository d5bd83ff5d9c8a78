import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ProductList } from "@voltio/domain/catalog";
import { listingApiPath, listingFacetsPath } from "@voltio/domain/listing";
import { bootReply } from "@/api/boot-data";
import { ApiError, apiFetch } from "@/api/client";

// The listing page's own queries: a file apart from api.ts, which the home page loads.

/** A refused question (400: a search too long, a bad price) gets the same answer again: say it at once. */
const retry = (failures: number, error: Error) =>
  !(error instanceof ApiError && error.status < 500) && failures < 3;

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
    retry,
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
    retry,
    enabled,
  });
}

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Category, Networks, Product, ProductList, Sale } from "@voltio/domain/catalog";
import { globalSalesOf, type SaleTerms } from "@voltio/domain/discount";
import type { Weekday } from "@voltio/domain/weekday";
import { bootReply } from "./boot-data";
import { ApiError, apiFetch, toQuery } from "./client";
import { useStoreInfo } from "./store";

export interface ProductFilters {
  search?: string;
  categoryId?: number;
  offset?: number;
  limit?: number;
  minPrice?: number;
  maxPrice?: number;
  freeShipping?: boolean;
  order?: "ASC" | "DESC" | "RATING";
  /** Admins only: out-of-stock products too (the back office's list). */
  includeOutOfStock?: boolean;
}

/** docs/product-rules.md §10.6, §12: lists and the detail page's related products ask for up to 100 products. */
export const LIST_LIMIT = 100;

export function fetchProducts(filters: ProductFilters, signal?: AbortSignal) {
  return apiFetch<ProductList>(`/products${toQuery({ ...filters })}`, { signal });
}

export function useProducts(filters: ProductFilters, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ["products", filters],
    queryFn: ({ signal }) => fetchProducts(filters, signal),
    // A server-rendered listing embeds its page's products (the server writes the path the same way).
    ...bootReply<ProductList>(`/products${toQuery({ ...filters })}`),
    placeholderData: keepPreviousData,
    // A refused question (400: a search too long, a bad price) gets the same answer again: say it at once.
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 3,
    enabled: options.enabled ?? true,
  });
}

/** A search box's product suggestions: a short first page, asked only while `enabled`. */
export function useProductSuggestions(
  filters: ProductFilters,
  { enabled, staleTime }: { enabled: boolean; staleTime?: number },
) {
  return useQuery({
    queryKey: ["products", filters],
    queryFn: ({ signal }) => fetchProducts(filters, signal),
    enabled,
    // Left out unless given: an undefined staleTime would override the client's default.
    ...(staleTime === undefined ? {} : { staleTime }),
  });
}

/** A product's description, for a guest's list line that was added without one (guest-lists.ts). */
export const productDescription = async (id: number) =>
  (await apiFetch<Product>(`/products/${id}`)).description;

export function useProduct(id: number) {
  return useQuery({
    queryKey: ["product", id],
    queryFn: ({ signal }) => apiFetch<Product>(`/products/${id}`, { signal }),
    ...bootReply<Product>(`/products/${id}`),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

/**
 * The categories: all of them (the back office, the listing's heading), or with `withProducts` only those
 * with a product for sale, as the storefront's menus offer them (an empty category leads nowhere).
 */
export function useCategories(search?: string, { withProducts }: { withProducts?: boolean } = {}) {
  const path = `/categories${toQuery({ search, withProducts })}`;
  return useQuery({
    queryKey: ["categories", search ?? "", Boolean(withProducts)],
    queryFn: ({ signal }) => apiFetch<Category[]>(path, { signal }),
    ...bootReply<Category[]>(path),
    staleTime: 5 * 60_000,
  });
}

/**
 * A search box's category suggestions: asked only while `enabled` (the text is long enough). `withProducts`
 * as in useCategories; no initial data, as no page embeds a search's categories.
 */
export function useCategorySuggestions(
  search: string,
  {
    withProducts = false,
    enabled,
    staleTime,
  }: { withProducts?: boolean; enabled: boolean; staleTime?: number },
) {
  return useQuery({
    queryKey: ["categories", search, withProducts],
    queryFn: ({ signal }) =>
      apiFetch<Category[]>(`/categories${toQuery({ search, withProducts: withProducts || undefined })}`, {
        signal,
      }),
    enabled,
    ...(staleTime === undefined ? {} : { staleTime }),
  });
}

export function useSales(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ["sales"],
    queryFn: ({ signal }) => apiFetch<Sale[]>("/sale", { signal }),
    ...bootReply<Sale[]>("/sale"),
    staleTime: 5 * 60_000,
    enabled: options.enabled ?? true,
  });
}

export function useNetworks() {
  return useQuery({
    queryKey: ["networks"],
    queryFn: ({ signal }) => apiFetch<Networks[]>("/networks", { signal }),
    ...bootReply<Networks[]>("/networks"),
    staleTime: 10 * 60_000,
  });
}

/**
 * What a price needs outside a product list (whose reply carries the global sales): the store's weekday
 * and the global sales, both from the server.
 */
export function usePricingContext(options: { enabled?: boolean } = {}): {
  today: Weekday | undefined;
  globalSales: SaleTerms[];
  /** Both are known: a price computed now is the one the server computes, not the undiscounted guess. */
  ready: boolean;
} {
  const { data: store } = useStoreInfo();
  const { data: sales } = useSales(options);
  return {
    today: store?.today,
    globalSales: sales ? globalSalesOf(sales) : [],
    ready: Boolean(store && sales),
  };
}

import { useMutation, useQueries, useQuery } from "@tanstack/react-query";
import type { Product, ProductList } from "@voltio/domain/catalog";
import type { Review } from "@voltio/domain/reviews";
import { fetchProducts, LIST_LIMIT } from "@/api/catalog";
import { apiFetch } from "@/api/client";
import { SESSION_KEY } from "@/api/session-key";

/**
 * A product's reviews (docs/product-rules.md §10.6 Reviews). The list depends on who asks (the caller's own review carries
 * its e-mail), so it lives under the session's key: logging in or out reads it again.
 */
export function useReviews(productId: number) {
  return useQuery({
    queryKey: [...SESSION_KEY, "reviews", productId],
    queryFn: ({ signal }) => apiFetch<Review[]>(`/comment?productId=${productId}`, { signal }),
  });
}

/*
 * The review calls leave the cache alone: a new or deleted review reloads the page (docs/product-rules.md §8 Review), and an
 * edited one is shown from the reply by the form that saved it.
 */

export function useCreateReview() {
  return useMutation({
    mutationFn: (body: { content: string; rating: number; productId: number }) =>
      apiFetch<Review>("/comment", { method: "POST", body: JSON.stringify(body) }),
  });
}

export function useUpdateReview() {
  return useMutation({
    mutationFn: (body: { id: number; content: string; rating: number }) =>
      apiFetch<Review>("/comment", { method: "PUT", body: JSON.stringify(body) }),
  });
}

export function useDeleteReview() {
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<{ msg: string }>("/comment", { method: "DELETE", body: JSON.stringify({ id }) }),
  });
}

/** Merges the category lists without duplicates. Stable, so TanStack Query can keep its result. */
function mergeCategoryLists(results: { data?: ProductList }[]) {
  const seen = new Set<number>();
  const products: Product[] = [];
  for (const result of results) {
    for (const item of result.data?.products ?? []) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      products.push(item);
    }
  }
  return { products, globalSales: results.find((result) => result.data)?.data?.globalSales ?? [] };
}

/**
 * The products sharing a category with this one: each of its categories with limit 100 (docs/product-rules.md §10.6),
 * merged without duplicates. The product itself is still among them. Here rather than in api/catalog.ts:
 * useQueries is the product page's alone, and every page loads api/catalog.ts (ADR 0006).
 */
export function useCategoryNeighbours(product: Product) {
  return useQueries({
    queries: product.categories.map(({ id: categoryId }) => ({
      queryKey: ["products", { categoryId, limit: LIST_LIMIT, offset: 1 }],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        fetchProducts({ categoryId, limit: LIST_LIMIT, offset: 1 }, signal),
    })),
    combine: mergeCategoryLists,
  });
}

import { useQuery } from "@tanstack/react-query";
import type { Review } from "@voltio/domain/reviews";
import { apiFetch } from "@/api/client";
import { SESSION_KEY } from "@/api/session-key";

/**
 * A product's reviews (SPEC.md §7 Reviews). The list depends on who asks (the caller's own review carries
 * its e-mail), so it lives under the session's key: logging in or out reads it again.
 */
export function useReviews(productId: number) {
  return useQuery({
    queryKey: [...SESSION_KEY, "reviews", productId],
    queryFn: ({ signal }) => apiFetch<Review[]>(`/comment?productId=${productId}`, { signal }),
  });
}

export const createReview = (body: { content: string; rating: number; productId: number }) =>
  apiFetch<Review>("/comment", { method: "POST", body: JSON.stringify(body) });

export const updateReview = (body: { id: number; content: string; rating: number }) =>
  apiFetch<Review>("/comment", { method: "PUT", body: JSON.stringify(body) });

export const deleteReview = (id: number) =>
  apiFetch<{ msg: string }>("/comment", { method: "DELETE", body: JSON.stringify({ id }) });

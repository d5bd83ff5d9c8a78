import { useQuery } from "@tanstack/react-query";
import { ApiError, apiFetch } from "@/api/client";
import { SESSION_KEY } from "@/api/session";

/** What the profile shows of a line of GET /order: the product with its order entries (DESIGN.md §5). */
export interface OrderProduct {
  id: number;
  title: string;
  price: number;
  images: { url: string; altText?: string }[];
  orders?: { id: number; amount: number; status?: string; localPurchaseDate?: string | null }[];
}

export type OverviewList = "inWishList" | "inCart" | "purchases";

/** SPEC.md §7: the purchase history asks for these statuses. */
export const PURCHASE_STATUSES = "pending,finished,preparing,onDelivery";

const statusOf = (list: OverviewList) => (list === "purchases" ? PURCHASE_STATUSES : list);

/**
 * The signed-in shopper's wishlist, cart or purchases from GET /order. Until the orders API exists the call
 * answers 404; SPEC.md §8 also treats "couldn't find orders" as an empty list. Both read as [].
 */
export function useOrderList(list: OverviewList) {
  return useQuery({
    queryKey: [...SESSION_KEY, "orders", list],
    queryFn: async ({ signal }) => {
      try {
        const reply = await apiFetch<OrderProduct[] | { msg?: string }>(`/order?status=${statusOf(list)}`, {
          signal,
        });
        return Array.isArray(reply) ? reply : [];
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return [];
        throw error;
      }
    },
    staleTime: 30_000,
  });
}

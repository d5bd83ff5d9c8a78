import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BuyAgainReply, Purchase, PurchaseSummary } from "@voltio/domain/purchase";
import { ApiError, apiFetch } from "@/api/client";
import { ORDERS_KEY, refreshOrders } from "@/api/orders";

/** The signed-in shopper's paid purchases: under the orders' key, so logout and login reset them. */
const PURCHASES_KEY = [...ORDERS_KEY, "purchases"] as const;

/** GET /order/purchases: each purchase's number, date, total and statuses, for the Purchases page. */
export function usePurchaseSummaries() {
  return useQuery({
    queryKey: PURCHASES_KEY,
    queryFn: ({ signal }) => apiFetch<PurchaseSummary[]>("/order/purchases", { signal }),
  });
}

/** GET /order/purchases/:number. A purchase that isn't the caller's is not found (404), never retried. */
export function usePurchase(number: string) {
  return useQuery({
    queryKey: [...PURCHASES_KEY, number],
    queryFn: ({ signal }) => apiFetch<Purchase>(`/order/purchases/${encodeURIComponent(number)}`, { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

/** POST /order/purchases/:number/buy-again: the cart changed, so the lists are read again. */
export function useBuyAgain(number: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<BuyAgainReply>(`/order/purchases/${encodeURIComponent(number)}/buy-again`, {
        method: "POST",
        body: "{}",
      }),
    onSuccess: () => refreshOrders(client),
  });
}

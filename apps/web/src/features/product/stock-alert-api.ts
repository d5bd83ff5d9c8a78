import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { StockAlertReply } from "@voltio/domain/stock-alerts";
import { ApiError, apiFetch } from "@/api/client";
import { SESSION_KEY } from "@/api/session-key";

/**
 * The signed-in shopper's back-in-stock request for a product. It is the caller's own,
 * so it lives under the session's key: logging in or out reads it again.
 */
const alertKey = (productId: number, variantId?: number) =>
  [...SESSION_KEY, "stock-alert", productId, variantId ?? null] as const;
/** `variantId`: the sold-out variant chosen (issue 41); none: the product's default one. */
const alertPath = (productId: number, variantId?: number) =>
  `/product/${productId}/stock-alert${variantId === undefined ? "" : `?variantId=${variantId}`}`;

export function useStockAlert(productId: number, enabled: boolean, variantId?: number) {
  return useQuery({
    queryKey: alertKey(productId, variantId),
    queryFn: ({ signal }) => apiFetch<StockAlertReply>(alertPath(productId, variantId), { signal }),
    enabled,
  });
}

/**
 * Asks (true) or cancels (false); the reply is what the server now holds. Refused because the product is back
 * in stock meanwhile (409), the product is read again: the page shows the stock now.
 */
export function useSetStockAlert(productId: number, variantId?: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (wanted: boolean) =>
      apiFetch<StockAlertReply>(alertPath(productId, variantId), { method: wanted ? "PUT" : "DELETE" }),
    onSuccess: (reply) => client.setQueryData(alertKey(productId, variantId), reply),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409)
        void client.invalidateQueries({ queryKey: ["product", productId] });
    },
  });
}

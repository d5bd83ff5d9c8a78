import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProductInput } from "@voltio/domain/admin";
import type { Product } from "@voltio/domain/catalog";
import { apiFetch } from "@/api/client";
import type { ScreenCallbacks } from "@/api/screen-callbacks";
import { refreshCatalogue } from "../api";

/**
 * POST /products, or PUT /products/:id when editing `product`. An edit is a change from the stock the form
 * loaded: the server refuses it if a sale moved it since. Then every catalogue reply is read again.
 */
export function useSaveProduct(product: Product | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ProductInput) =>
      apiFetch<Product>(product ? `/products/${product.id}` : "/products", {
        method: product ? "PUT" : "POST",
        body: JSON.stringify(product ? { ...input, stockBefore: product.stock } : input),
      }),
    onSuccess: () => refreshCatalogue(client),
  });
}

/** DELETE /products/:id, then every catalogue reply is read again. */
export function useDeleteProduct(screen: ScreenCallbacks<unknown, number> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...screen,
    mutationFn: (id: number) => apiFetch<unknown>(`/products/${id}`, { method: "DELETE" }),
    onSuccess: async (...args) => {
      await screen.onSuccess?.(...args);
      await refreshCatalogue(client);
    },
  });
}

import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { SaleInput } from "@voltio/domain/admin";
import type { ProductList, Sale } from "@voltio/domain/catalog";
import type { SALE_DAY_NAMES } from "@voltio/domain/weekday";
import { apiFetch } from "@/api/client";
import { ADMIN_KEY, refreshCatalogue } from "../api";
import { uploadImage } from "../upload";

/** docs/product-rules.md §10.6, §12: the sales binder asks for up to 1000 products, out of stock included (admins only). */
export const BINDER_PRODUCTS_PATH = "/products?limit=1000&includeOutOfStock=true";

/**
 * GET /sale: the storefront's own cache entry (the home banner and every price read it), but read again
 * each time the screen opens, so the list is the server's and not a 5-minute-old copy.
 */
export function useSaleList() {
  return useQuery({
    queryKey: ["sales"],
    queryFn: ({ signal }) => apiFetch<Sale[]>("/sale", { signal }),
    staleTime: 0,
  });
}

/** The products binder's choices: every product, by id and title. */
export function useBinderProducts() {
  return useQuery({
    queryKey: [...ADMIN_KEY, "sales", "products"],
    queryFn: ({ signal }) => apiFetch<ProductList>(BINDER_PRODUCTS_PATH, { signal }),
    select: (list) => list.products.map((product) => ({ id: product.id, name: product.title })),
    staleTime: 60_000,
  });
}

/** The days the form offers (docs/product-rules.md §13 Sale): monday..sunday and all, sent as these full names. */
export type SaleDayName = (typeof SALE_DAY_NAMES)[number];

/** What POST /sale and PUT /sale carry: the schema's values, with the day as the form's full name. */
export type SaleBody = Omit<SaleInput, "day"> & { day: SaleDayName };

/**
 * After a sale changed: the list, the storefront's products, product pages, sales and priced lines, so
 * every price on the page reflects the change at once. Not waited for: the screen answers the save at once.
 */
const afterSaleChange = (client: QueryClient) => void refreshCatalogue(client);

/** POST /sale (create, `id` null) or PUT /sale with the id (edit). */
export function useSaveSale() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, id }: { body: SaleBody; id: number | null }) =>
      id === null
        ? apiFetch<unknown>("/sale", { method: "POST", body: JSON.stringify(body) })
        : apiFetch<unknown>("/sale", { method: "PUT", body: JSON.stringify({ ...body, id }) }),
    onSuccess: () => afterSaleChange(client),
  });
}

/** DELETE /sale?saleId={id}: gone from the list at once, the refresh confirms it. */
export function useDeleteSale() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<unknown>(`/sale?saleId=${id}`, { method: "DELETE" }),
    onSuccess: (_reply, id) => {
      client.setQueryData<Sale[]>(["sales"], (list) => list?.filter((item) => item.id !== id));
      afterSaleChange(client);
    },
  });
}

/** POST /uploads: the address the sale's picture is served from (no progress bar for one small image). */
export function useUploadSaleImage() {
  return useMutation({ mutationFn: (file: File) => uploadImage(file, () => undefined) });
}

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Product } from "@voltio/domain/catalog";
import type {
  Attribute,
  AttributeInput,
  Brand,
  BrandInput,
  VariantsInput,
} from "@voltio/domain/catalog-structure";
import type { CsvProblem } from "@voltio/domain/product-csv";
import { ApiError, apiFetch } from "@/api/client";
import { ADMIN_KEY, refreshCatalogue } from "../api";
import { saveCsv } from "../download";

/** Brands, attributes, a product's specifications and variants, and CSV (issue 41, docs/product-rules.md §7.3.1). */
const BRANDS_KEY = [...ADMIN_KEY, "brands"] as const;
const ATTRIBUTES_KEY = [...ADMIN_KEY, "attributes"] as const;

export const useBrands = () =>
  useQuery({ queryKey: BRANDS_KEY, queryFn: ({ signal }) => apiFetch<Brand[]>("/brands", { signal }) });

export const useAttributes = (categoryIds: number[]) =>
  useQuery({
    queryKey: [...ATTRIBUTES_KEY, categoryIds],
    queryFn: async ({ signal }) => {
      const all = await apiFetch<Attribute[]>("/attributes", { signal });
      return categoryIds.length ? all.filter((attribute) => categoryIds.includes(attribute.categoryId)) : all;
    },
  });

/** A write, then the lists it changes and every catalogue reply are read again. */
function useWrite<Input, Output = unknown>(request: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: BRANDS_KEY }),
        client.invalidateQueries({ queryKey: ATTRIBUTES_KEY }),
        refreshCatalogue(client),
      ]),
  });
}

export const useCreateBrand = () =>
  useWrite((input: BrandInput) =>
    apiFetch<Brand>("/brands", { method: "POST", body: JSON.stringify(input) }),
  );
export const useUpdateBrand = () =>
  useWrite(({ id, ...input }: BrandInput & { id: number }) =>
    apiFetch<Brand>(`/brands/${id}`, { method: "PUT", body: JSON.stringify(input) }),
  );
export const useDeleteBrand = () =>
  useWrite((id: number) => apiFetch<unknown>(`/brands/${id}`, { method: "DELETE" }));
export const useCreateAttribute = () =>
  useWrite((input: AttributeInput) =>
    apiFetch<Attribute>("/attributes", { method: "POST", body: JSON.stringify(input) }),
  );
export const useUpdateAttribute = () =>
  useWrite(({ id, ...input }: AttributeInput & { id: number }) =>
    apiFetch<Attribute>(`/attributes/${id}`, { method: "PUT", body: JSON.stringify(input) }),
  );
export const useDeleteAttribute = () =>
  useWrite((id: number) => apiFetch<unknown>(`/attributes/${id}`, { method: "DELETE" }));

/** The product sent back as GET gave it (the server takes that shape), with its brand and specifications. */
export const useSaveDetails = (product: Product) =>
  useWrite((details: { brandId: number | null; specs: Record<string, string | null> }) =>
    apiFetch<Product>(`/products/${product.id}`, {
      method: "PUT",
      body: JSON.stringify({ ...product, stockBefore: product.stock, ...details }),
    }),
  );

export const useSaveVariants = (productId: number) =>
  useWrite((grid: VariantsInput) =>
    apiFetch<Product>(`/products/${productId}/variants`, { method: "PUT", body: JSON.stringify(grid) }),
  );

export const useExportProducts = () =>
  useMutation({
    mutationFn: async () => {
      const csv = await apiFetch<unknown>("/admin/products/export.csv");
      saveCsv(typeof csv === "string" ? csv : JSON.stringify(csv), "products.csv");
    },
  });

/** The import's counts, or the file's problems by line (a refused file changed nothing). */
export type ImportOutcome = { created: number; updated: number } | { errors: CsvProblem[]; message: string };

export const useImportProducts = () =>
  useWrite(async (text: string): Promise<ImportOutcome> => {
    try {
      return await apiFetch<{ created: number; updated: number }>("/admin/products/import", {
        method: "POST",
        headers: { "content-type": "text/csv" },
        body: text,
      });
    } catch (error) {
      const body =
        error instanceof ApiError ? (error.body as { errors?: CsvProblem[]; error?: string }) : null;
      if (body?.errors) return { errors: body.errors, message: body.error ?? "" };
      throw error;
    }
  });

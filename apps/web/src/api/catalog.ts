import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Category, Product, ProductList, Sale } from "@voltio/domain/catalog";
import { apiFetch, toQuery } from "./client";

export interface ProductFilters {
  search?: string;
  categoryId?: number;
  offset?: number;
  limit?: number;
  minPrice?: number;
  maxPrice?: number;
  freeShipping?: boolean;
  order?: "ASC" | "DESC";
}

export function useProducts(filters: ProductFilters, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ["products", filters],
    queryFn: () => apiFetch<ProductList>(`/products${toQuery({ ...filters })}`),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

export function useProduct(id: number) {
  return useQuery({
    queryKey: ["product", id],
    queryFn: () => apiFetch<Product>(`/products/${id}`),
    retry: false,
  });
}

export function useCategories(search?: string) {
  return useQuery({
    queryKey: ["categories", search ?? ""],
    queryFn: () => apiFetch<Category[]>(`/categories${toQuery({ search })}`),
    staleTime: 5 * 60_000,
  });
}

export function useSales() {
  return useQuery({ queryKey: ["sales"], queryFn: () => apiFetch<Sale[]>("/sale"), staleTime: 5 * 60_000 });
}

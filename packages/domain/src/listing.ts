/**
 * The storefront's listing (docs/product-rules.md §1 /products) as its URL query states it, without zod: the browser's
 * listing page reads it on its first paint (ADR 0006) and the server's render reads it the same way. The
 * API's schemas for the same query are in catalog.ts.
 */

/** The longest search the API takes (catalog.ts productListQuerySchema). */
export const SEARCH_MAX_LENGTH = 100;

/**
 * What a /products page (docs/product-rules.md §1) asks the API for, read from the page's query: the storefront's grid
 * (apps/web listing-query.ts) and the server's render, whose embedded reply must sit under the same API path.
 */
export interface ListingFilters {
  search?: string;
  categoryId?: number;
  offset: number;
  limit?: number;
  minPrice?: number;
  maxPrice?: number;
  freeShipping?: true;
  order?: "ASC" | "DESC" | "RATING";
}

const numberParam = (value: string | null) => {
  if (value === null || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
};

const positiveInteger = (value: string | null) => {
  const number = numberParam(value);
  return number !== undefined && Number.isInteger(number) && number > 0 ? number : undefined;
};

export function listingFilters(params: URLSearchParams): ListingFilters {
  const order = params.get("order");
  const minPrice = numberParam(params.get("minPrice"));
  const maxPrice = numberParam(params.get("maxPrice"));
  return {
    search: params.get("search")?.trim() || undefined,
    categoryId: positiveInteger(params.get("categoryId")),
    offset: positiveInteger(params.get("offset")) ?? 1,
    limit: positiveInteger(params.get("limit")),
    minPrice: minPrice !== undefined && minPrice >= 0 ? minPrice : undefined,
    maxPrice: maxPrice !== undefined && maxPrice >= 0 ? maxPrice : undefined,
    freeShipping: params.get("freeShipping") === "true" ? true : undefined,
    order: order === "ASC" || order === "DESC" || order === "RATING" ? order : undefined,
  };
}

/** The API path of a listing page's products, written as the web client writes it (apps/web api/client toQuery). */
export function listingApiPath(params: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(listingFilters(params))) {
    if (value !== undefined) query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `/products?${text}` : "/products";
}

/** A search longer than the API takes (SEARCH_MAX_LENGTH) is answered with a message, not sent. */
export const searchTooLong = (search: string | undefined): boolean =>
  search !== undefined && search.length > SEARCH_MAX_LENGTH;

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
  /** Facet filters (issue 41, docs/product-rules.md §2.11): brands' slugs, any of them. */
  brand?: string[];
  /** `spec.<key>` (values, any of them) and `spec.<key>.min` / `.max`, by parameter name, sorted. */
  spec?: Record<string, string[]>;
  minRating?: number;
  inStock?: true;
}

/** A `spec.` parameter: an attribute key, optionally `.min` or `.max` (catalog.ts ATTRIBUTE_KEY). */
const SPEC_PARAM = /^spec\.[a-z][a-z0-9_]{0,39}(\.(min|max))?$/;

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
    ...facetFilters(params),
  };
}

/** The facet filters of a listing's query; absent ones are left out, so older paths stay as they were. */
function facetFilters(
  params: URLSearchParams,
): Pick<ListingFilters, "brand" | "spec" | "minRating" | "inStock"> {
  const filters: Pick<ListingFilters, "brand" | "spec" | "minRating" | "inStock"> = {};
  const brand = [...new Set(params.getAll("brand").map((value) => value.trim()))].filter(Boolean).sort();
  if (brand.length) filters.brand = brand;
  const spec: Record<string, string[]> = {};
  // forEach, not keys(): the package's DOM lib has no iterators (its tsconfig), and browsers and Node both have it.
  const names = new Set<string>();
  params.forEach((_value, key) => names.add(key));
  for (const name of [...names].filter((key) => SPEC_PARAM.test(key)).sort()) {
    const ranged = name.endsWith(".min") || name.endsWith(".max");
    const values = [...new Set(params.getAll(name).map((value) => value.trim()))].filter((value) =>
      ranged ? numberParam(value) !== undefined : value !== "",
    );
    // A range takes one bound: the last given.
    if (values.length) spec[name] = ranged ? values.slice(-1) : values.sort();
  }
  if (Object.keys(spec).length) filters.spec = spec;
  const minRating = positiveInteger(params.get("minRating"));
  if (minRating !== undefined && minRating <= 5) filters.minRating = minRating;
  if (params.get("inStock") === "true") filters.inStock = true;
  return filters;
}

/** The API path of a listing page's products, written as the web client writes it (apps/web api/client toQuery). */
export function listingApiPath(params: URLSearchParams): string {
  const query = new URLSearchParams();
  const { brand, spec, ...named } = listingFilters(params);
  for (const [key, value] of Object.entries(named)) {
    if (value !== undefined) query.set(key, String(value));
  }
  // Repeated parameters, in a fixed order: the server's embedded reply and the browser's ask match.
  for (const value of brand ?? []) query.append("brand", value);
  for (const [name, values] of Object.entries(spec ?? {}))
    values.forEach((value) => query.append(name, value));
  const text = query.toString();
  return text ? `/products?${text}` : "/products";
}

/**
 * The API path of a listing page's facet counts (issue 41): its filters without the page or the sort, one
 * product (the counts don't depend on the page), `facets=true`. The storefront's filter panel asks it and
 * the server's render embeds it under the same path.
 */
export function listingFacetsPath(params: URLSearchParams): string {
  const filters = new URLSearchParams(params);
  for (const key of ["offset", "order"]) filters.delete(key);
  filters.set("limit", "1");
  return `${listingApiPath(filters)}&facets=true`;
}

/** A search longer than the API takes (SEARCH_MAX_LENGTH) is answered with a message, not sent. */
export const searchTooLong = (search: string | undefined): boolean =>
  search !== undefined && search.length > SEARCH_MAX_LENGTH;

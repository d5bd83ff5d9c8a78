import { listingFilters, type ListingFilters } from "@voltio/domain/listing";

/**
 * The listing's whole state lives in the URL query (docs/product-rules.md §1), so back, forward, reload and shared links
 * all show the same page. These helpers read it and derive the next query for each control; every filter
 * change goes back to page 1.
 */

/** The page's filters: the same reading the server's render uses for the products it embeds (boot data). */
export function filtersFrom(params: URLSearchParams): ListingFilters {
  return listingFilters(params);
}

function firstPage(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set("offset", "1");
  return next;
}

/** Min and Max: empty values are removed from the query (docs/product-rules.md §1). */
export function withPrice(params: URLSearchParams, min: string, max: string): URLSearchParams {
  const next = firstPage(params);
  for (const [key, value] of [
    ["minPrice", min.trim()],
    ["maxPrice", max.trim()],
  ] as const) {
    if (value === "") next.delete(key);
    else next.set(key, value);
  }
  return next;
}

/** Free shipping: sets freeShipping to true, or to false if it was true (docs/product-rules.md §1). */
export function withFreeShippingToggled(params: URLSearchParams): URLSearchParams {
  const next = firstPage(params);
  next.set("freeShipping", params.get("freeShipping") === "true" ? "false" : "true");
  return next;
}

/**
 * Sort: ASC and DESC (and, beyond the SPEC, RATING) exclude each other; choosing the current one again clears
 * the order (docs/product-rules.md §1).
 */
export function withOrderToggled(params: URLSearchParams, order: "ASC" | "DESC" | "RATING"): URLSearchParams {
  const next = firstPage(params);
  if (params.get("order") === order) next.delete("order");
  else next.set("order", order);
  return next;
}

/** Leaves what is being browsed (search, category) and drops the filters and the sort. */
export function withoutFilters(params: URLSearchParams): URLSearchParams {
  const next = firstPage(params);
  for (const key of ["minPrice", "maxPrice", "freeShipping", "order"]) next.delete(key);
  return next;
}

export function withPage(params: URLSearchParams, page: number): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set("offset", String(page));
  return next;
}

/** Page numbers for the page bar: the first, the last and the neighbours of the current one. */
export function pageNumbers(current: number, total: number): (number | "gap")[] {
  const pages: (number | "gap")[] = [];
  for (let page = 1; page <= total; page++) {
    if (page === 1 || page === total || Math.abs(page - current) <= 1) pages.push(page);
    else if (pages[pages.length - 1] !== "gap") pages.push("gap");
  }
  return pages;
}

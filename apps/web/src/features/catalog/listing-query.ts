import { listingFilters } from "@voltio/domain/listing";
import type { ProductFilters } from "@/api/catalog";

/**
 * The listing's whole state lives in the URL query (docs/product-rules.md §1), so back, forward, reload and shared links
 * all show the same page. These helpers read it and derive the next query for each control; every filter
 * change goes back to page 1.
 */

/** The page's filters: the same reading the server's render uses for the products it embeds (boot data). */
export function filtersFrom(params: URLSearchParams): ProductFilters {
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

/**
 * The facet filters' URL (issue 41, docs/product-rules.md §2.11): `brand=<slug>` and `spec.<key>=<value>`
 * repeated (any of them), `spec.<key>.min` / `.max`, `minRating`, `inStock=true`. Like the listing's other
 * filters they live in the query; every change goes back to page 1.
 */

/** A checkbox's value in or out of a repeated parameter (`brand`, `spec.connection`). */
export function withValueToggled(params: URLSearchParams, name: string, value: string): URLSearchParams {
  const next = firstPage(params);
  const values = params.getAll(name);
  next.delete(name);
  const kept = values.includes(value) ? values.filter((other) => other !== value) : [...values, value];
  kept.forEach((other) => next.append(name, other));
  return next;
}

/** A number attribute's range; an empty bound is removed. */
export function withRange(params: URLSearchParams, key: string, min: string, max: string): URLSearchParams {
  const next = firstPage(params);
  for (const [name, value] of [
    [`spec.${key}.min`, min.trim()],
    [`spec.${key}.max`, max.trim()],
  ] as const) {
    if (value === "") next.delete(name);
    else next.set(name, value);
  }
  return next;
}

/** "4 stars & up": choosing the current one again clears it. */
export function withMinRating(params: URLSearchParams, stars: string): URLSearchParams {
  const next = firstPage(params);
  if (params.get("minRating") === stars) next.delete("minRating");
  else next.set("minRating", stars);
  return next;
}

export function withInStockToggled(params: URLSearchParams): URLSearchParams {
  const next = firstPage(params);
  if (params.get("inStock") === "true") next.delete("inStock");
  else next.set("inStock", "true");
  return next;
}

const isFacetParam = (name: string) =>
  name === "brand" || name === "minRating" || name === "inStock" || name.startsWith("spec.");

/** How many facet filters are on: the phone's Filters button counts them. */
export function facetFilterCount(params: URLSearchParams): number {
  return [...params.entries()].filter(([name, value]) => isFacetParam(name) && value !== "").length;
}

/** The query without its facet filters (what is browsed, the price and the sort stay). */
export function withoutFacets(params: URLSearchParams): URLSearchParams {
  const next = firstPage(params);
  for (const name of [...new Set(params.keys())]) if (isFacetParam(name)) next.delete(name);
  return next;
}

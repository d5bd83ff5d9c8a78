/**
 * The facet filters' URL (issue 41, docs/product-rules.md §2.11): `brand=<slug>` and `spec.<key>=<value>`
 * repeated (any of them), `spec.<key>.min` / `.max`, `minRating`, `inStock=true`. Like the listing's other
 * filters they live in the query; every change goes back to page 1. Apart from listing-query.ts: only the
 * filter panel's lazily loaded code uses them.
 */

function firstPage(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set("offset", "1");
  return next;
}

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

import type { FacetAttribute, FacetValue, ProductListQuery } from "@voltio/domain/catalog";
import { toCents } from "@voltio/domain/money";
import { formatSpec } from "@voltio/domain/specs";
import type { RawQuery } from "../../db/raw";
import { InvalidInput } from "../../errors";
import { AVAILABLE_STOCK_SQL } from "../inventory/stock";
import type { CatalogReference, ReferenceAttribute } from "./reference";
import type { TtlCache } from "./ttl-cache";

/**
 * Facet filters and their counts (issue 41, docs/product-rules.md §2.11): brand, each filterable attribute
 * (any of a key's values, a number's range), rating and availability, on top of the listing's own filters.
 * Each facet's counts apply every other active filter (classic faceted search), so a shopper sees what
 * choosing one more value would leave. One statement per facet, planned with its values.
 */

/** Any facet filter, or the counts, asked for: the listing takes this path instead of its prepared one. */
export const facetedListing = (query: ProductListQuery) =>
  (query.brand?.length ?? 0) > 0 ||
  query.spec !== undefined ||
  query.minRating !== undefined ||
  query.inStock === true ||
  query.maxStock !== undefined ||
  query.facets === true;

/** A search's matches the facets are counted among: the best ones, in the search's order. */
export const SEARCH_FACET_MATCHES = 2000;

interface SpecFilter {
  key: string;
  attributes: ReferenceAttribute[];
  values: string[];
  min?: number;
  max?: number;
}

/** The `spec.` parameters read against the attributes: 400 naming the parameter for an unknown key or range. */
function specFilters(query: ProductListQuery, reference: CatalogReference): SpecFilter[] {
  const filters = new Map<string, SpecFilter>();
  for (const [parameter, given] of Object.entries(query.spec ?? {})) {
    const match = /^spec\.([a-z][a-z0-9_]{0,39})(?:\.(min|max))?$/.exec(parameter);
    if (!match) throw new InvalidInput(parameter, "must be spec.<key>, spec.<key>.min or spec.<key>.max");
    const [, key, bound] = match as unknown as [string, string, "min" | "max" | undefined];
    const attributes = reference.attributes.filter((attribute) => attribute.key === key);
    if (attributes.length === 0) throw new InvalidInput(`spec.${key}`, "is not an attribute of any category");
    if (given.some((value) => value.length > 200))
      throw new InvalidInput(parameter, "must be at most 200 characters");
    const filter = filters.get(key) ?? { key, attributes, values: [] };
    if (bound) {
      const number = given.length === 1 && /^-?\d+(\.\d+)?$/.test(given[0]!) ? Number(given[0]) : NaN;
      if (!Number.isFinite(number)) throw new InvalidInput(parameter, "must be one number");
      filter[bound] = number;
    } else filter.values.push(...given);
    filters.set(key, filter);
  }
  for (const filter of filters.values())
    if (filter.min !== undefined && filter.max !== undefined && filter.min > filter.max)
      throw new InvalidInput(`spec.${filter.key}.max`, "must be at least the minimum");
  return [...filters.values()];
}

/** SQL text with its values numbered $1, $2… in the order they were added. */
class Statement {
  readonly values: unknown[] = [];
  value(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A condition on `products p`, owned by a facet (left out of that facet's counts) or by none. */
interface Condition {
  facet?: string;
  sql: (statement: Statement) => string;
}

function conditionsOf(
  query: ProductListQuery,
  specs: SpecFilter[],
  { includeOutOfStock, ids }: { includeOutOfStock: boolean; ids?: number[] },
): Condition[] {
  const conditions: Condition[] = [{ sql: () => "p.deleted_at is null" }];
  if (!includeOutOfStock) conditions.push({ sql: () => "p.stock > 0" });
  if (query.freeShipping) conditions.push({ sql: () => "p.shipping_cost_cents = 0" });
  if (ids) conditions.push({ sql: (s) => `p.id = any(${s.value(ids)}::int[])` });
  if (query.categoryId !== undefined)
    conditions.push({
      sql: (s) =>
        `exists (select 1 from product_categories pc where pc.product_id = p.id and pc.category_id = ${s.value(query.categoryId)})`,
    });
  if (query.minPrice !== undefined)
    conditions.push({ sql: (s) => `p.price_cents >= ${s.value(toCents(query.minPrice!))}` });
  if (query.maxPrice !== undefined)
    conditions.push({ sql: (s) => `p.price_cents <= ${s.value(toCents(query.maxPrice!))}` });
  if (query.maxStock !== undefined) conditions.push({ sql: (s) => `p.stock <= ${s.value(query.maxStock)}` });
  if (query.brand?.length)
    conditions.push({
      facet: "brand",
      sql: (s) =>
        `p.brand_id in (select b.id from brands b where b.slug = any(${s.value(query.brand)}::text[]))`,
    });
  if (query.minRating !== undefined)
    conditions.push({
      facet: "rating",
      sql: (s) => `p.rating_count > 0 and p.rating_sum >= ${s.value(query.minRating)} * p.rating_count`,
    });
  if (query.inStock) conditions.push({ facet: "availability", sql: () => `${AVAILABLE_STOCK_SQL} > 0` });
  for (const filter of specs)
    conditions.push({
      facet: filter.key,
      sql: (s) => {
        const ofValue: string[] = [];
        if (filter.values.length) {
          const numbers = filter.values.map(Number).filter(Number.isFinite);
          const ranges = filter.values.flatMap((value) => {
            const range = NUMBER_RANGE.exec(value);
            return range ? [[Number(range[1]), Number(range[2])] as const] : [];
          });
          ofValue.push(
            `(lower(s.text_value) = any(${s.value(filter.values.map((value) => value.toLowerCase()))}::text[])` +
              ` or s.number_value = any(${s.value(numbers)}::float8[])` +
              ranges
                .map(([from, to]) => ` or s.number_value between ${s.value(from)} and ${s.value(to)}`)
                .join("") +
              ")",
          );
        }
        if (filter.min !== undefined) ofValue.push(`s.number_value >= ${s.value(filter.min)}`);
        if (filter.max !== undefined) ofValue.push(`s.number_value <= ${s.value(filter.max)}`);
        return `exists (select 1 from product_specs s where s.product_id = p.id
          and s.attribute_id = any(${s.value(filter.attributes.map((attribute) => attribute.id))}::int[])
          and ${ofValue.join(" and ")})`;
      },
    });
  return conditions;
}

/** The where clause of every condition but `except`'s facet's. */
const whereOf = (conditions: Condition[], statement: Statement, except?: string) =>
  conditions
    .filter((condition) => except === undefined || condition.facet !== except)
    .map((condition) => condition.sql(statement))
    .join(" and ");

const ORDERS = {
  ASC: "p.price_cents asc, p.id asc",
  DESC: "p.price_cents desc, p.id asc",
  RATING: "p.rating_sum::float8 / greatest(p.rating_count, 1) desc, p.rating_count desc, p.id asc",
  ID: "p.id asc",
} as const;

export interface FacetedPage {
  ids: number[];
  total: number;
  facets?: Record<string, FacetValue[]>;
  facetAttributes?: FacetAttribute[];
}

/** What a faceted listing counts: the same for every page and order of one set of filters. */
export type FacetedCounts = Pick<FacetedPage, "facets" | "facetAttributes">;

/**
 * What a faceted listing keeps by its filters (CatalogCache.facets), as the plain listing keeps its counts: the
 * counts (each facet reads every matching product's values: tens of ms at 100k products) and, by order, the
 * ids of all its matches (a page is then a slice of them: the filters' statement, planned for each request,
 * takes ~100 ms where a few thousand products match, the page's rows ~1 ms). Any catalogue or stock change,
 * by any process, clears it (CatalogCache.changed).
 */
export type FacetedCountsCache = TtlCache<FacetedCounts | Int32Array>;

/** A cache key for what a listing's filters give: without the page, its size or the order. */
const filtersKey = (query: ProductListQuery, includeOutOfStock: boolean) => {
  const { offset: _offset, limit: _limit, order: _order, ...filters } = query;
  return JSON.stringify([+includeOutOfStock, filters]);
};

/**
 * One page of the listing under every filter, its total, and with `facets` the counts. `searchIds`: a
 * search's matches in its order, which the page keeps.
 */
export async function facetedPage(
  run: RawQuery,
  query: ProductListQuery,
  reference: CatalogReference,
  options: { includeOutOfStock: boolean; searchIds?: number[]; counts?: FacetedCountsCache },
): Promise<FacetedPage> {
  const specs = specFilters(query, reference);
  const conditions = conditionsOf(query, specs, {
    includeOutOfStock: options.includeOutOfStock,
    ids: options.searchIds,
  });
  /** The ids of the matches in the page's order; with `page`, that page's only. */
  const matchesSql = (statement: Statement, page?: { limit: number; offset: number }) => {
    const where = whereOf(conditions, statement);
    const order =
      options.searchIds && !query.order
        ? `array_position(${statement.value(options.searchIds)}::int[], p.id)`
        : ORDERS[query.order ?? "ID"];
    const sliced = page
      ? ` limit ${statement.value(page.limit)} offset ${statement.value((page.offset - 1) * page.limit)}`
      : "";
    return `select p.id from products p where ${where} order by ${order}${sliced}`;
  };
  const idsOf = async (page?: { limit: number; offset: number }) => {
    const statement = new Statement();
    const text = matchesSql(statement, page);
    return (await run.arrays<[number]>(undefined, text, statement.values)).map(([id]) => id);
  };
  const facets = () => (query.facets ? facetCounts(run, reference, conditions) : Promise.resolve({}));
  const cache = options.counts;
  if (cache?.enabled) {
    const key = filtersKey(query, options.includeOutOfStock);
    const [matches, counted] = await Promise.all([
      cache.getOrLoad(`ids ${query.order ?? "ID"} ${key}`, async () => Int32Array.from(await idsOf())),
      cache.getOrLoad(`counts ${key}`, facets),
    ]);
    const all = matches as Int32Array;
    const start = (query.offset - 1) * query.limit;
    return {
      ids: Array.from(all.subarray(start, start + query.limit)),
      ...(counted as FacetedCounts),
      total: all.length,
    };
  }
  const count = new Statement();
  const countSql = `select count(*)::int as total from products p where ${whereOf(conditions, count)}`;
  const [ids, [counted], facetsCounted] = await Promise.all([
    idsOf({ limit: query.limit, offset: query.offset }),
    run<{ total: number }>(undefined, countSql, count.values),
    facets(),
  ]);
  return { ids, total: counted?.total ?? 0, ...facetsCounted };
}

/**
 * The filterable attributes, by key (one filter per key, whichever categories define it): a listing's
 * products may be in several categories (a laptop's RAM is a Computers attribute), so every key is counted
 * and those none of the products has are left out.
 */
function facetAttributesOf(reference: CatalogReference) {
  const byKey = new Map<string, ReferenceAttribute[]>();
  for (const attribute of reference.attributes)
    if (attribute.filterable) byKey.set(attribute.key, [...(byKey.get(attribute.key) ?? []), attribute]);
  return [...byKey.values()];
}

/** A number facet with more distinct values than this is counted in RANGES ranges instead. */
const RANGES_AFTER = 10;
const RANGES = 5;
/** A range facet's value, `spec.<key>=16..32` (inclusive), as its counts name it. */
const NUMBER_RANGE = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)$/;

/**
 * A number facet's values (in increasing order) in up to RANGES ranges of about as many products each, named
 * by their first and last values: `{value: "16..32", label: "16–32 GB"}`.
 */
function numberRanges(rows: ValueCount[], unit: string): FacetValue[] {
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  const ranges: FacetValue[] = [];
  let first = 0;
  let counted = 0;
  rows.forEach((row, index) => {
    counted += row.count;
    const last = index === rows.length - 1;
    if (!last && counted < (total * (ranges.length + 1)) / RANGES) return;
    const from = rows[first]!;
    ranges.push({
      value: from === row ? row.value : `${from.value}..${row.value}`,
      label:
        from === row
          ? formatSpec(Number(row.number), unit)
          : `${formatSpec(Number(from.number), "")}–${formatSpec(Number(row.number), unit)}`,
      count: rows.slice(first, index + 1).reduce((sum, each) => sum + each.count, 0),
    });
    first = index + 1;
  });
  return ranges;
}

interface ValueCount {
  key: string;
  value: string;
  number: number | null;
  count: number;
}

async function facetCounts(
  run: RawQuery,
  reference: CatalogReference,
  conditions: Condition[],
): Promise<Pick<FacetedPage, "facets" | "facetAttributes">> {
  const brand = new Statement();
  const brandSql = `select b.slug as value, b.name as label, count(*)::int as count
    from products p join brands b on b.id = p.brand_id where ${whereOf(conditions, brand, "brand")}
    group by b.slug, b.name order by lower(b.name)`;
  const rating = new Statement();
  const ratingSql = `select ${[4, 3, 2, 1]
    .map(
      (stars) =>
        `count(*) filter (where p.rating_count > 0 and p.rating_sum >= ${stars} * p.rating_count)::int as "${stars}"`,
    )
    .join(", ")} from products p where ${whereOf(conditions, rating, "rating")}`;
  const available = new Statement();
  const availableSql = `select count(*) filter (where ${AVAILABLE_STOCK_SQL} > 0)::int as count
    from products p where ${whereOf(conditions, available, "availability")}`;
  const attributes = facetAttributesOf(reference);
  // The keys no filter names are all counted under every filter: one statement for all of them. Each key a
  // filter names is counted under the others, a statement of its own.
  const filtered = new Set(conditions.flatMap((condition) => (condition.facet ? [condition.facet] : [])));
  const valuesOf = (sameKeys: ReferenceAttribute[][], except?: string) => {
    if (sameKeys.length === 0) return Promise.resolve([]);
    const ofKeys = sameKeys.flat();
    const statement = new Statement();
    const text = `select a.key, coalesce(s.text_value, trim_scale(s.number_value::numeric)::text) as value,
        min(s.number_value) as number, count(distinct p.id)::int as count
      from products p join product_specs s on s.product_id = p.id
      join unnest(${statement.value(ofKeys.map((attribute) => attribute.id))}::int[],
        ${statement.value(ofKeys.map((attribute) => attribute.key))}::text[]) a(id, key) on a.id = s.attribute_id
      where ${whereOf(conditions, statement, except)}
      group by 1, 2 order by 1, 3 nulls last, 2`;
    return run<ValueCount>(undefined, text, statement.values);
  };
  const [brands, [ratings], [availability], ...values] = await Promise.all([
    run<FacetValue>(undefined, brandSql, brand.values),
    run<Record<string, number>>(undefined, ratingSql, rating.values),
    run<{ count: number }>(undefined, availableSql, available.values),
    valuesOf(attributes.filter((sameKey) => !filtered.has(sameKey[0]!.key))),
    ...attributes
      .filter((sameKey) => filtered.has(sameKey[0]!.key))
      .map((sameKey) => valuesOf([sameKey], sameKey[0]!.key)),
  ]);
  const valuesByKey = new Map<string, ValueCount[]>();
  for (const row of values.flat()) valuesByKey.set(row.key, [...(valuesByKey.get(row.key) ?? []), row]);
  const facets: Record<string, FacetValue[]> = {
    brand: brands,
    rating: [4, 3, 2, 1].map((stars) => ({
      value: String(stars),
      label: `${stars}+`,
      count: ratings?.[stars] ?? 0,
    })),
    availability: [{ value: "inStock", label: "In stock", count: availability?.count ?? 0 }],
  };
  const facetAttributes: FacetAttribute[] = [];
  attributes.forEach((sameKey) => {
    const { key, label, type, unit } = sameKey[0]!;
    const rows = valuesByKey.get(key);
    if (!rows) return;
    facets[key] =
      type === "number" && rows.length > RANGES_AFTER
        ? numberRanges(rows, unit)
        : rows.map((row) => ({
            value: row.value,
            label: formatSpec(row.number ?? row.value, unit),
            count: row.count,
          }));
    const numbers = rows.flatMap((row) => (row.number === null ? [] : [Number(row.number)]));
    facetAttributes.push({
      key,
      label,
      type,
      unit,
      min: numbers.length ? Math.min(...numbers) : null,
      max: numbers.length ? Math.max(...numbers) : null,
    });
  });
  return { facets, facetAttributes };
}

import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { Product, ProductList, ProductListQuery } from "@voltio/domain/catalog";
import type { SaleTerms } from "@voltio/domain/discount";
import { toCents } from "@voltio/domain/money";
import { ratingAverage } from "@voltio/domain/reviews";
import { rawQuery, type RawQuery } from "../../db/raw";
import type { LiveSearchIndex } from "./search/live-index";
import { searchTerms } from "./search/words";
import { AVAILABLE_STOCK_SQL } from "../inventory/stock";
import type { Db } from "../../db/client";
import type { TtlCache } from "./ttl-cache";
import { SEARCH_FACET_MATCHES, facetedListing, facetedPage, type FacetedCountsCache } from "./facets";
import { catalogReference, type CatalogReference } from "./reference";

const PRODUCT_COLUMNS = `p.id, p.title, p.name, p.price_cents as "priceCents",
  p.shipping_cost_cents as "shippingCostCents", ${AVAILABLE_STOCK_SQL} as stock, p.description,
  (select coalesce(json_agg(json_build_object('url', i.url, 'altText', i.alt_text) order by i.position), '[]')
   from product_images i where i.product_id = p.id and i.variant_id is null) as images,
  (select coalesce(json_agg(pc.category_id order by pc.category_id), '[]')
   from product_categories pc where pc.product_id = p.id) as "categoryIds",
  p.rating_sum as "ratingSum", p.rating_count as "ratingCount",
  (select json_build_object('id', b.id, 'name', b.name, 'slug', b.slug) from brands b where b.id = p.brand_id) as brand,
  (select coalesce(json_agg(json_build_object('key', a.key, 'label', a.label,
     'value', coalesce(to_jsonb(s.number_value), to_jsonb(s.text_value)), 'unit', a.unit) order by a.position, a.id), '[]')
   from product_specs s join attributes a on a.id = s.attribute_id where s.product_id = p.id) as specs,
  p.options,
  (select coalesce(json_agg(json_build_object('id', v.id, 'sku', v.sku, 'options', v.options,
     'priceCents', v.price_cents, 'saleEligible', v.sale_eligible,
     'stock', (v.stock - coalesce((select sum(h.units) from stock_holds h
        where h.variant_id = v.id and h.expires_at > now()), 0))::int,
     'images', (select coalesce(json_agg(json_build_object('url', i.url, 'altText', i.alt_text) order by i.position), '[]')
        from product_images i where i.variant_id = v.id)) order by v.position, v.id), '[]')
   from product_variants v where v.product_id = p.id and v.retired_at is null) as variants`;

interface ProductRow {
  id: number;
  title: string;
  name: string;
  priceCents: number;
  shippingCostCents: number;
  stock: number;
  description: string;
  images: { url: string; altText: string }[];
  categoryIds: number[];
  ratingSum: number;
  ratingCount: number;
  brand: Product["brand"];
  specs: Product["specs"];
  options: Product["options"];
  variants: (Omit<Product["variants"][number], "price"> & { priceCents: number })[];
}

function toProduct(row: ProductRow, reference: CatalogReference): Product {
  const categorySales = new Map<number, SaleTerms>();
  for (const categoryId of row.categoryIds) {
    for (const sale of reference.salesByCategory.get(categoryId) ?? []) categorySales.set(sale.id, sale);
  }
  return {
    id: row.id,
    title: row.title,
    name: row.name,
    price: row.priceCents / 100,
    shippingCost: row.shippingCostCents / 100,
    stock: row.stock,
    description: row.description,
    images: row.images,
    categories: row.categoryIds.map((id) => ({ id, name: reference.categoryNames.get(id) ?? "" })),
    sales: {
      productSales: reference.salesByProduct.get(row.id) ?? [],
      categorySales: [...categorySales.values()].sort((a, b) => a.id - b.id),
    },
    rating: { average: ratingAverage(row.ratingSum, row.ratingCount), count: row.ratingCount },
    brand: row.brand,
    specs: row.specs,
    options: row.options,
    variants: row.variants.map(({ priceCents, ...variant }) => ({ ...variant, price: priceCents / 100 })),
  };
}

/** The rows of these products, in the order of the ids. */
async function productRows(db: Db, ids: number[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  const rows = await selectRows(
    db,
    sql`p.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return inOrderOf(ids, rows, (row) => row.id);
}

/** The rows in the order of the ids (a retired or missing product is left out). */
function inOrderOf<Row>(ids: number[], rows: Row[], idOf: (row: Row) => number): Row[] {
  const byId = new Map<number, Row>();
  for (const row of rows) byId.set(idOf(row), row);
  const ordered: Row[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row !== undefined) ordered.push(row);
  }
  return ordered;
}

/** A row of PRODUCT_COLUMNS as its values, in their order. */
type ProductValues = [
  id: number,
  title: string,
  name: string,
  priceCents: number,
  shippingCostCents: number,
  stock: number,
  description: string,
  images: ProductRow["images"],
  categoryIds: number[],
  ratingSum: number,
  ratingCount: number,
  brand: ProductRow["brand"],
  specs: ProductRow["specs"],
  options: ProductRow["options"],
  variants: ProductRow["variants"],
];

const productRow = (values: ProductValues): ProductRow => ({
  id: values[0],
  title: values[1],
  name: values[2],
  priceCents: values[3],
  shippingCostCents: values[4],
  stock: values[5],
  description: values[6],
  images: values[7],
  categoryIds: values[8],
  ratingSum: values[9],
  ratingCount: values[10],
  brand: values[11],
  specs: values[12],
  options: values[13],
  variants: values[14],
});

async function selectRows(db: Db, where: SQL): Promise<ProductRow[]> {
  const result = await db.execute(sql`select ${sql.raw(PRODUCT_COLUMNS)} from products p where ${where}`);
  return (result as unknown as { rows: ProductRow[] }).rows;
}

/**
 * These products in the catalogue's shape with their sales, retired ones included (order lines keep
 * pointing at them), in the order of the ids, and the store-wide sales their prices also depend on.
 */
export async function productsByIds(
  db: Db,
  ids: number[],
  cache?: TtlCache<CatalogReference>,
): Promise<{ products: Product[]; globalSales: SaleTerms[] }> {
  // In turn, not at once: callers pass their transaction (see loadReference).
  const rows = await productRows(db, ids);
  const reference = await catalogReference(db, cache);
  return { products: rows.map((row) => toProduct(row, reference)), globalSales: reference.globalSales };
}

/** A prepared statement's name: one per distinct SQL text, so values vary but the plan is reused. */
function statementName(prefix: string, sqlText: string): string {
  return `${prefix}_${createHash("sha1").update(sqlText).digest("hex").slice(0, 16)}`;
}

export interface CatalogCaches {
  counts?: TtlCache<number>;
  facets?: FacetedCountsCache;
  reference?: TtlCache<CatalogReference>;
  search: LiveSearchIndex;
}

export async function listProducts(
  db: Db,
  query: ProductListQuery,
  options: { includeOutOfStock: boolean } & CatalogCaches,
): Promise<ProductList> {
  if (query.search !== undefined) return searchProducts(db, query, options);
  if (facetedListing(query)) return facetedProducts(db, query, options);
  const statement = listingStatement(query, options.includeOutOfStock);
  const values = listingValues(query);
  const run = rawQuery(db);
  const countKey = `${statement.shape} ${values.join(" ")}`;
  const count = () =>
    run<{ total: number }>(statement.name && `${statement.name}_count`, statement.count, values).then(
      ([row]) => row?.total ?? 0,
    );
  const [rows, total, reference] = await Promise.all([
    run
      .arrays<[id: number]>(statement.name, statement.page, [
        ...values,
        query.limit,
        (query.offset - 1) * query.limit,
      ])
      .then((page) =>
        rowsInOrder(
          run,
          page.map(([id]) => id),
        ),
      ),
    options.counts ? options.counts.getOrLoad(countKey, count) : count(),
    catalogReference(db, options.reference),
  ]);
  return listReply(query, rows, total, reference);
}

/** A listing with facet filters or counts (facets.ts): `searchIds`, a search's best matches in order. */
async function facetedProducts(
  db: Db,
  query: ProductListQuery,
  options: { includeOutOfStock: boolean } & CatalogCaches,
  searchIds?: number[],
): Promise<ProductList> {
  const run = rawQuery(db);
  const reference = await catalogReference(db, options.reference);
  const { ids, total, facets, facetAttributes } = await facetedPage(run, query, reference, {
    includeOutOfStock: options.includeOutOfStock,
    searchIds,
    counts: options.facets,
  });
  const reply = listReply(query, await rowsInOrder(run, ids), total, reference);
  return facets ? { ...reply, facets, facetAttributes } : reply;
}

function listReply(
  query: ProductListQuery,
  rows: ProductRow[],
  total: number,
  reference: CatalogReference,
): ProductList {
  const totalPages = Math.ceil(total / query.limit);
  return {
    products: rows.map((row) => toProduct(row, reference)),
    pages: totalPages,
    totalPages,
    page: query.offset,
    total,
    globalSales: reference.globalSales,
  };
}

/** The filters of a listing that change its SQL (their values don't), in the order of the parameters. */
const LISTING_FILTERS = [
  {
    present: (q: ProductListQuery) => q.categoryId !== undefined,
    value: (q: ProductListQuery) => q.categoryId,
    condition: (n: number) =>
      `exists (select 1 from product_categories pc where pc.product_id = p.id and pc.category_id = $${n})`,
  },
  {
    present: (q: ProductListQuery) => q.minPrice !== undefined,
    value: (q: ProductListQuery) => toCents(q.minPrice!),
    condition: (n: number) => `p.price_cents >= $${n}`,
  },
  {
    present: (q: ProductListQuery) => q.maxPrice !== undefined,
    value: (q: ProductListQuery) => toCents(q.maxPrice!),
    condition: (n: number) => `p.price_cents <= $${n}`,
  },
];

const LISTING_ORDERS = {
  ASC: "p.price_cents asc, p.id asc",
  DESC: "p.price_cents desc, p.id asc",
  RATING: "p.rating_sum::float8 / greatest(p.rating_count, 1) desc, p.rating_count desc, p.id asc",
  ID: "p.id asc",
} as const;

interface ListingStatement {
  /** Which filters are present, the order and the stock and shipping switches: one statement each. */
  shape: string;
  /**
   * The prepared statements' name: PostgreSQL plans them once per connection. None with a price range: a
   * plan made without its values reads half the catalogue by price for a category's first page (10 ms
   * instead of 0.1 ms at 100k products), so such statements are planned with their values each time.
   */
  name?: string;
  /** Parameters: the filters' values, then limit and offset. */
  page: string;
  /** Parameters: the filters' values. */
  count: string;
}

const listingStatements = new Map<string, ListingStatement>();

/** The listing's two statements for this shape of query, written once per shape. */
function listingStatement(query: ProductListQuery, includeOutOfStock: boolean): ListingStatement {
  // Computed on every request: a loop, not arrays joined.
  let filters = "";
  for (const filter of LISTING_FILTERS) filters += +filter.present(query);
  const shape = `${filters} ${query.order ?? "ID"} ${+includeOutOfStock}${+(query.freeShipping === true)}`;
  let statement = listingStatements.get(shape);
  if (statement) return statement;
  const present = LISTING_FILTERS.map((filter) => filter.present(query));
  const conditions = ["p.deleted_at is null"];
  if (!includeOutOfStock) conditions.push("p.stock > 0");
  if (query.freeShipping) conditions.push("p.shipping_cost_cents = 0");
  let parameters = 0;
  LISTING_FILTERS.forEach((filter, index) => {
    if (present[index]) conditions.push(filter.condition(++parameters));
  });
  const where = conditions.join(" and ");
  // The page's ids, then their rows (rowsInOrder): PostgreSQL computes the select list of every row an
  // OFFSET skips, and two small statements plan faster than one that joins them (0.27 ms against 0.47 ms).
  const page = `select p.id from products p where ${where} order by ${LISTING_ORDERS[query.order ?? "ID"]}
    limit $${parameters + 1} offset $${parameters + 2}`;
  statement = {
    shape,
    name: present[1] || present[2] ? undefined : statementName("products_list", page),
    page,
    count: `select count(*)::int as total from products p where ${where}`,
  };
  listingStatements.set(shape, statement);
  return statement;
}

function listingValues(query: ProductListQuery): number[] {
  const values: number[] = [];
  for (const filter of LISTING_FILTERS) if (filter.present(query)) values.push(filter.value(query)!);
  return values;
}

/** A search (search/search-index.ts): the index picks the page's products, the database gives their rows. */
async function searchProducts(
  db: Db,
  query: ProductListQuery,
  options: { includeOutOfStock: boolean } & CatalogCaches,
): Promise<ProductList> {
  const run = rawQuery(db);
  const terms = searchTerms(query.search);
  const reference = catalogReference(db, options.reference);
  // Awaited last: when the search fails first (the database went away), that is the request's error, and this
  // one must not become an unhandled rejection.
  reference.catch(() => {});
  // With facets, the search's best matches are filtered and counted by the database.
  const faceted = facetedListing(query);
  // A search with no letters or digits in it matches nothing.
  const { ids, total } =
    terms.length === 0
      ? { ids: [], total: 0 }
      : (await options.search.get(run)).search({
          terms,
          categoryId: query.categoryId,
          minCents: query.minPrice === undefined ? undefined : toCents(query.minPrice),
          maxCents: query.maxPrice === undefined ? undefined : toCents(query.maxPrice),
          freeShipping: query.freeShipping,
          includeOutOfStock: options.includeOutOfStock,
          order: faceted ? undefined : query.order,
          page: faceted ? 1 : query.offset,
          limit: faceted ? SEARCH_FACET_MATCHES : query.limit,
        });
  if (faceted) return facetedProducts(db, query, options, ids);
  return listReply(query, await rowsInOrder(run, ids), total, await reference);
}

/** The rows of a page's products, in the page's order: one statement, planned once per connection. */
async function rowsInOrder(run: RawQuery, ids: number[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  const rows = await run.arrays<ProductValues>(
    "products_by_ids",
    `select ${PRODUCT_COLUMNS} from products p where p.id = any($1::int[])`,
    [ids],
  );
  return inOrderOf(ids, rows, (values) => values[0]).map(productRow);
}

export async function getProduct(
  db: Db,
  id: number,
  cache?: TtlCache<CatalogReference>,
): Promise<Product | null> {
  const [[row], reference] = await Promise.all([
    selectRows(db, sql`p.id = ${id} and p.deleted_at is null`),
    catalogReference(db, cache),
  ]);

  return row ? toProduct(row, reference) : null;
}

/** How many related products a product page shows at most. */
export const RELATED_LIMIT = 20;
/** How many candidates each way of being related brings (RELATED_POOL each, ranked together). */
const RELATED_POOL = 100;

/**
 * GET /products/:id/related (docs/product-rules.md §2.6, issue 41): products for sale sharing a category
 * with it, those of its narrowest category first (a mouse's mice before the Peripheral keyboards), then the
 * same brand, then the most specification values in common.
 *
 * Ranking every product of its categories reads a third of a 100k catalogue (seconds); the candidates are
 * instead the first RELATED_POOL of each way of being related (the narrowest category with the brand, the
 * narrowest category, the brand in a shared category, a shared category, each specification's value), read in
 * id order from the indexes, and those are ranked.
 */
export async function relatedProducts(
  db: Db,
  id: number,
  cache?: TtlCache<CatalogReference>,
): Promise<Pick<ProductList, "products" | "globalSales">> {
  const run = rawQuery(db);
  const reference = catalogReference(db, cache);
  // Awaited last: a failing query is the request's error, and this one must not go unhandled.
  reference.catch(() => {});
  const [me] = await run<{ brandId: number | null; categoryIds: number[]; narrowest: number | null }>(
    "products_related_me",
    `select p.brand_id as "brandId",
       array(select category_id from product_categories where product_id = p.id) as "categoryIds",
       (select pc.category_id from product_categories pc
         where pc.category_id in (select category_id from product_categories where product_id = p.id)
         group by pc.category_id order by count(*), pc.category_id limit 1) as narrowest
     from products p where p.id = $1`,
    [id],
  );
  if (!me || me.categoryIds.length === 0) return { products: [], globalSales: (await reference).globalSales };
  const forSale = "p.deleted_at is null and p.stock > 0 and p.id <> $1";
  const inMine = `exists (select 1 from product_categories pc where pc.product_id = p.id and pc.category_id = any($4::int[]))`;
  const candidates = await run.arrays<[number]>(
    "products_related_candidates",
    `(select p.id from product_categories c join products p on p.id = c.product_id
       where c.category_id = $2 and p.brand_id = $3 and ${forSale} order by c.product_id limit $5)
     union (select p.id from product_categories c join products p on p.id = c.product_id
       where c.category_id = $2 and ${forSale} order by c.product_id limit $5)
     union (select p.id from products p where p.brand_id = $3 and ${forSale} and ${inMine} order by p.id limit $5)
     union (select p.id from products p where ${forSale} and ${inMine} order by p.id limit $5)
     union (select alike.id from product_specs m cross join lateral (
         select s.product_id as id from product_specs s where s.attribute_id = m.attribute_id
           and (s.number_value = m.number_value or s.text_value = m.text_value) and s.product_id <> $1
         order by s.product_id limit $5) alike
       where m.product_id = $1)`,
    [id, me.narrowest, me.brandId, me.categoryIds, RELATED_POOL],
  );
  const ids = await run.arrays<[number]>(
    "products_related",
    `select p.id from products p
     where p.id = any($2::int[]) and ${forSale} and ${inMine.replace("$4", "$3")}
     order by 4 * (exists (select 1 from product_categories pc where pc.product_id = p.id
           and pc.category_id = $4))::int
       + 2 * coalesce(p.brand_id = $5, false)::int
       + (select count(*) from product_specs s join product_specs m on m.product_id = $1
           and m.attribute_id = s.attribute_id
           and (m.number_value = s.number_value or m.text_value = s.text_value)
         where s.product_id = p.id)::int desc, p.id
     limit $6`,
    [id, candidates.map(([candidate]) => candidate), me.categoryIds, me.narrowest, me.brandId, RELATED_LIMIT],
  );
  const rows = await rowsInOrder(
    run,
    ids.map(([related]) => related),
  );
  const known = await reference;
  return { products: rows.map((row) => toProduct(row, known)), globalSales: known.globalSales };
}

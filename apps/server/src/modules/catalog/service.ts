import { createHash } from "node:crypto";
import { and, asc, desc, eq, exists, gte, ilike, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import type {
  Category,
  Networks,
  Product,
  ProductList,
  ProductListQuery,
  Sale,
} from "@voltio/domain/catalog";
import type { SaleTerms } from "@voltio/domain/discount";
import { toCents } from "@voltio/domain/money";
import { ratingAverage } from "@voltio/domain/reviews";
import { likeLiteral } from "../../db/like";
import { buildSearch, searchTerms } from "./search";
import type { Db } from "../../db/client";
import type { TtlCache } from "./cache";
import {
  categories,
  networks,
  productCategories,
  productImages,
  products,
  saleCategories,
  saleProducts,
  sales,
} from "../../db/schema";

/**
 * Categories and sales are small and change rarely: each process keeps a snapshot (cleared on catalogue
 * writes, and by TTL for writes made by another process), so a product page needs one query, not five.
 */
export interface CatalogReference {
  categoryNames: Map<number, string>;
  salesByProduct: Map<number, SaleTerms[]>;
  salesByCategory: Map<number, SaleTerms[]>;
  /** Sales tied to no product and no category apply to the whole store. */
  globalSales: SaleTerms[];
}

const saleTermsColumns = {
  id: sales.id,
  percentage: sales.percentage,
  day: sales.day,
  productAmount: sales.productAmount,
};

/**
 * One query after the other: `db` may be a transaction, whose single connection must not be sent a query
 * while another runs (pg 8 queues them with a warning, pg 9 refuses). A cache miss is rare.
 */
async function loadReference(db: Db): Promise<CatalogReference> {
  const categoryRows = await db.select({ id: categories.id, name: categories.name }).from(categories);
  const saleRows = await db.select(saleTermsColumns).from(sales).orderBy(asc(sales.id));
  const productLinks = await db
    .select({ saleId: saleProducts.saleId, productId: saleProducts.productId })
    .from(saleProducts);
  const categoryLinks = await db
    .select({ saleId: saleCategories.saleId, categoryId: saleCategories.categoryId })
    .from(saleCategories);
  const saleById = new Map(saleRows.map((sale) => [sale.id, sale]));
  const group = (links: { saleId: number; key: number }[]) => {
    const grouped = new Map<number, SaleTerms[]>();
    for (const link of links.sort((a, b) => a.saleId - b.saleId)) {
      const sale = saleById.get(link.saleId);
      if (sale) grouped.set(link.key, [...(grouped.get(link.key) ?? []), sale]);
    }
    return grouped;
  };
  const linked = new Set([...productLinks, ...categoryLinks].map((link) => link.saleId));
  return {
    categoryNames: new Map(categoryRows.map((category) => [category.id, category.name])),
    salesByProduct: group(productLinks.map((link) => ({ saleId: link.saleId, key: link.productId }))),
    salesByCategory: group(categoryLinks.map((link) => ({ saleId: link.saleId, key: link.categoryId }))),
    globalSales: saleRows.filter((sale) => !linked.has(sale.id)),
  };
}

export async function catalogReference(
  db: Db,
  cache?: TtlCache<CatalogReference>,
): Promise<CatalogReference> {
  const cached = cache?.get("reference");
  if (cached) return cached;
  const reference = await loadReference(db);
  cache?.set("reference", reference);
  return reference;
}

/**
 * A product row with its pictures and category ids, in one statement. The outer column is spelled out:
 * drizzle renders ${products.id} unqualified in a one-table select, which the subquery would resolve to
 * its own id column.
 */
const productRowColumns = {
  id: products.id,
  title: products.title,
  name: products.name,
  priceCents: products.priceCents,
  shippingCostCents: products.shippingCostCents,
  stock: products.stock,
  description: products.description,
  images: sql<{ url: string; altText: string }[]>`(
    select coalesce(json_agg(json_build_object('url', i.url, 'altText', i.alt_text) order by i.position), '[]')
    from ${productImages} i where i.product_id = "products"."id")`,
  categoryIds: sql<number[]>`(
    select coalesce(json_agg(pc.category_id order by pc.category_id), '[]')
    from ${productCategories} pc where pc.product_id = "products"."id")`,
  ratingSum: products.ratingSum,
  ratingCount: products.ratingCount,
};

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
  };
}

/** The rows of these products, in the order of the ids. */
async function productRows(db: Db, ids: number[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.select(productRowColumns).from(products).where(inArray(products.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
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
  reference?: TtlCache<CatalogReference>;
}

export async function listProducts(
  db: Db,
  query: ProductListQuery,
  options: { includeOutOfStock: boolean } & CatalogCaches,
): Promise<ProductList> {
  const terms = searchTerms(query.search);
  const search = await buildSearch(db, terms);
  const where = and(
    isNull(products.deletedAt),
    options.includeOutOfStock ? undefined : sql`${products.stock} > 0`,
    query.categoryId === undefined
      ? undefined
      : exists(
          db
            .select({ one: sql`1` })
            .from(productCategories)
            .where(
              and(
                eq(productCategories.productId, products.id),
                eq(productCategories.categoryId, query.categoryId),
              ),
            ),
        ),
    query.minPrice === undefined ? undefined : gte(products.priceCents, toCents(query.minPrice)),
    query.maxPrice === undefined ? undefined : lte(products.priceCents, toCents(query.maxPrice)),
    query.freeShipping ? eq(products.shippingCostCents, 0) : undefined,
    search?.where,
    // A search with no letters or digits in it matches nothing.
    query.search && terms.length === 0 ? sql`false` : undefined,
  );
  const orderBy: SQL[] =
    query.order === "ASC"
      ? [asc(products.priceCents), asc(products.id)]
      : query.order === "DESC"
        ? [desc(products.priceCents), asc(products.id)]
        : query.order === "RATING"
          ? [
              desc(sql`${products.ratingSum}::float8 / greatest(${products.ratingCount}, 1)`),
              desc(products.ratingCount),
              asc(products.id),
            ]
          : search
            ? [desc(search.score), asc(products.id)]
            : [asc(products.id)];

  const { offset: _page, limit: _limit, order: _order, ...filters } = query;
  const countKey = JSON.stringify({ ...filters, includeOutOfStock: options.includeOutOfStock });
  const cachedTotal = options.counts?.get(countKey);
  // Ids first: PostgreSQL computes the select list of every row an OFFSET skips, so the pictures and
  // categories are fetched for the page's rows only.
  const pageIds = db
    .select({ id: products.id })
    .from(products)
    .where(where)
    .orderBy(...orderBy)
    .limit(query.limit)
    .offset((query.offset - 1) * query.limit);
  const [rows, total, reference] = await Promise.all([
    // A named statement is planned once per connection and shape of filters, not once per request.
    pageIds
      .prepare(statementName("products_page", pageIds.toSQL().sql))
      .execute()
      .then((page) =>
        productRows(
          db,
          page.map((row) => row.id),
        ),
      ),
    cachedTotal ??
      db
        .select({ total: sql<number>`count(*)::int` })
        .from(products)
        .where(where)
        .then(([row]) => {
          const counted = row?.total ?? 0;
          options.counts?.set(countKey, counted);
          return counted;
        }),
    catalogReference(db, options.reference),
  ]);
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

export async function getProduct(
  db: Db,
  id: number,
  cache?: TtlCache<CatalogReference>,
): Promise<Product | null> {
  const [[row], reference] = await Promise.all([
    db
      .select(productRowColumns)
      .from(products)
      .where(and(eq(products.id, id), isNull(products.deletedAt))),
    catalogReference(db, cache),
  ]);

  return row ? toProduct(row, reference) : null;
}

export function listCategories(db: Db, search: string | undefined): Promise<Category[]> {
  return db
    .select({ id: categories.id, name: categories.name, image: categories.image })
    .from(categories)
    .where(search ? ilike(categories.name, `%${likeLiteral(search)}%`) : undefined)
    .orderBy(asc(categories.id));
}

export async function getNetworks(db: Db): Promise<Networks[]> {
  const [row] = await db
    .select({ facebook: networks.facebook, twitter: networks.twitter, instagram: networks.instagram })
    .from(networks);
  return [row ?? { facebook: "", twitter: "", instagram: "" }];
}

/** GET /sale: sales with their categories and live products (a retired product no longer shows in a sale). */
export function listSales(db: Db, limit: number | undefined): Promise<Sale[]> {
  return readSales(db, { limit });
}

/** One sale as GET /sale lists it, or null. */
export async function getSale(db: Db, id: number): Promise<Sale | null> {
  return (await readSales(db, { id }))[0] ?? null;
}

async function readSales(db: Db, filter: { limit?: number; id?: number }): Promise<Sale[]> {
  const rows = await db.query.sales.findMany({
    where: filter.id === undefined ? undefined : eq(sales.id, filter.id),
    orderBy: [asc(sales.id)],
    limit: filter.limit,
    with: {
      categories: { columns: {}, with: { category: { columns: { id: true, name: true } } } },
      products: {
        columns: {},
        with: { product: { columns: { id: true, title: true, deletedAt: true } } },
      },
    },
  });
  return (
    rows
      // A sale left only with retired products binds nothing a shopper can buy; listed without them it would
      // read as store-wide (no products, no categories) to a client that prices by itself.
      .filter(
        (row) =>
          row.categories.length > 0 ||
          row.products.length === 0 ||
          row.products.some(({ product }) => !product.deletedAt),
      )
      .map((row) => ({
        id: row.id,
        description: row.description,
        percentage: row.percentage,
        day: row.day,
        productAmount: row.productAmount,
        image: row.image,
        categories: row.categories.map(({ category }) => category).sort((a, b) => a.id - b.id),
        products: row.products
          .flatMap(({ product }) => (product.deletedAt ? [] : [{ id: product.id, title: product.title }]))
          .sort((a, b) => a.id - b.id),
      }))
  );
}

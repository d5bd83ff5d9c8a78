import { and, asc, eq, ilike, sql } from "drizzle-orm";
import type { Category, Networks, Sale } from "@voltio/domain/catalog";
import type { SaleTerms } from "@voltio/domain/discount";
import type { Db } from "../../db/client";
import { likeLiteral } from "../../db/like";
import {
  attributes,
  categories,
  networks,
  productCategories,
  products,
  saleCategories,
  saleProducts,
  sales,
} from "../../db/schema";
import type { TtlCache } from "./ttl-cache";

/**
 * The store's reference data: categories, sales and networks. Categories and sales are small and change
 * rarely: each process keeps a snapshot (dropped when any process changes them: db/changes.ts), so a product
 * page needs one query, not five.
 */
/** An attribute as filters and facets read it (issue 41). */
export interface ReferenceAttribute {
  id: number;
  categoryId: number;
  key: string;
  label: string;
  type: "number" | "text" | "enum";
  unit: string;
  filterable: boolean;
  betterWhen: "higher" | "lower" | null;
}

export interface CatalogReference {
  categoryNames: Map<number, string>;
  /** Every category's attributes, in their categories' and positions' order. */
  attributes: ReferenceAttribute[];
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
  const attributeRows = await db
    .select({
      id: attributes.id,
      categoryId: attributes.categoryId,
      key: attributes.key,
      label: attributes.label,
      type: attributes.type,
      unit: attributes.unit,
      filterable: attributes.filterable,
      betterWhen: attributes.betterWhen,
    })
    .from(attributes)
    .orderBy(asc(attributes.categoryId), asc(attributes.position), asc(attributes.id));
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
    attributes: attributeRows,
    salesByProduct: group(productLinks.map((link) => ({ saleId: link.saleId, key: link.productId }))),
    salesByCategory: group(categoryLinks.map((link) => ({ saleId: link.saleId, key: link.categoryId }))),
    globalSales: saleRows.filter((sale) => !linked.has(sale.id)),
  };
}

export async function catalogReference(
  db: Db,
  cache?: TtlCache<CatalogReference>,
): Promise<CatalogReference> {
  return cache ? cache.getOrLoad("reference", () => loadReference(db)) : loadReference(db);
}

/**
 * A product's columns as toProduct reads them, its pictures and category ids included, for `products p`:
 * one statement per product page, whatever the number of pictures.
 */
export function listCategories(
  db: Db,
  search: string | undefined,
  { withProducts = false }: { withProducts?: boolean } = {},
): Promise<Category[]> {
  // "For sale" as the public listing counts it (service.ts): not retired and on the shelf. The reply cache
  // is cleared by every catalogue write, so a product retired, sold out or moved updates the menu.
  const forSale = sql`exists (select 1 from ${productCategories} pc join ${products} p on p.id = pc.product_id
    where pc.category_id = ${categories.id} and p.deleted_at is null and p.stock > 0)`;
  return db
    .select({ id: categories.id, name: categories.name, image: categories.image })
    .from(categories)
    .where(
      and(
        search ? ilike(categories.name, `%${likeLiteral(search)}%`) : undefined,
        withProducts ? forSale : undefined,
      ),
    )
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

import { and, asc, desc, eq, exists, gte, ilike, isNull, lte, notExists, sql, type SQL } from "drizzle-orm";
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
import type { Db } from "../../db/client";
import type { TtlCache } from "../../http/catalog-cache";
import {
  categories,
  networks,
  productCategories,
  productImages,
  products,
  saleCategories,
  saleProducts,
  sales,
  searchWords,
} from "../../db/schema";

/** Escapes LIKE wildcards so a search for "100%" means the text "100%". */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The words of a search: letters and digits only (so they are safe inside a tsquery), at most 8. */
export function searchTerms(search: string | undefined): string[] {
  if (!search) return [];
  return search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8)
    .map((term) => term.slice(0, 40));
}

/**
 * Every word of the search must match: as the start of a catalogue word ('logi' → logitech), or through
 * the catalogue words nearest to it by trigram similarity, which corrects typos ('mose' → mouse).
 */
async function searchQuery(db: Db, terms: string[]): Promise<SQL> {
  const alternatives = await Promise.all(
    terms.map(async (term) => {
      if (term.length < 3) return [`${term}:*`];
      const similar = await db
        .select({ word: searchWords.word, similarity: sql<number>`similarity(${searchWords.word}, ${term})` })
        .from(searchWords)
        .where(sql`${searchWords.word} % ${term}`)
        .orderBy(sql`${searchWords.word} <-> ${term}`)
        .limit(6);
      // Keep only the words nearly as close as the best one: an exact word doesn't drag in its neighbours.
      const best = similar[0]?.similarity ?? 0;
      return [`${term}:*`, ...similar.filter((row) => row.similarity >= best * 0.75).map((row) => row.word)];
    }),
  );
  const query = alternatives.map((words) => `(${words.join(" | ")})`).join(" & ");
  return sql`to_tsquery('simple', ${query})`;
}

const saleTermsColumns = { id: true, percentage: true, day: true, productAmount: true } as const;

const productColumns = {
  id: true,
  title: true,
  name: true,
  priceCents: true,
  shippingCostCents: true,
  stock: true,
  description: true,
} as const;

/** What a product reply includes: images, categories with their sales, and the product's own sales. */
const productWith = {
  images: { columns: { url: true, altText: true }, orderBy: asc(productImages.position) },
  categories: {
    columns: {},
    with: {
      category: {
        columns: { id: true, name: true },
        with: { sales: { columns: {}, with: { sale: { columns: saleTermsColumns } } } },
      },
    },
  },
  sales: { columns: {}, with: { sale: { columns: saleTermsColumns } } },
} as const;

type ProductRow = NonNullable<Awaited<ReturnType<typeof findProductRow>>>;

function findProductRow(db: Db, id: number) {
  return db.query.products.findFirst({
    columns: productColumns,
    where: and(eq(products.id, id), isNull(products.deletedAt)),
    with: productWith,
  });
}

function toProduct(row: ProductRow): Product {
  const categorySales = new Map<number, SaleTerms>();
  for (const { category } of row.categories) {
    for (const { sale } of category.sales) categorySales.set(sale.id, sale);
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
    categories: row.categories
      .map(({ category }) => ({ id: category.id, name: category.name }))
      .sort((a, b) => a.id - b.id),
    sales: {
      productSales: row.sales.map(({ sale }) => sale),
      categorySales: [...categorySales.values()].sort((a, b) => a.id - b.id),
    },
  };
}

/** Sales tied to no product and no category apply to the whole store. */
export function listGlobalSales(db: Db): Promise<SaleTerms[]> {
  return db
    .select({
      id: sales.id,
      percentage: sales.percentage,
      day: sales.day,
      productAmount: sales.productAmount,
    })
    .from(sales)
    .where(
      and(
        notExists(
          db
            .select({ one: sql`1` })
            .from(saleProducts)
            .where(eq(saleProducts.saleId, sales.id)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(saleCategories)
            .where(eq(saleCategories.saleId, sales.id)),
        ),
      ),
    )
    .orderBy(asc(sales.id));
}

export async function listProducts(
  db: Db,
  query: ProductListQuery,
  options: { includeOutOfStock: boolean; counts?: TtlCache<number> },
): Promise<ProductList> {
  const terms = searchTerms(query.search);
  const tsQuery = terms.length > 0 ? await searchQuery(db, terms) : undefined;
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
    tsQuery ? sql`${products.searchVector} @@ ${tsQuery}` : undefined,
    // A search with no letters or digits in it matches nothing.
    query.search && terms.length === 0 ? sql`false` : undefined,
  );
  const orderBy: SQL[] =
    query.order === "ASC"
      ? [asc(products.priceCents), asc(products.id)]
      : query.order === "DESC"
        ? [desc(products.priceCents), asc(products.id)]
        : tsQuery
          ? [desc(sql`ts_rank(${products.searchVector}, ${tsQuery})`), asc(products.id)]
          : [asc(products.id)];

  const [rows, [counted], globalSales] = await Promise.all([
    db.query.products.findMany({
      where,
      orderBy,
      limit: query.limit,
      offset: (query.offset - 1) * query.limit,
      with: productWith,
    }),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(products)
      .where(where),
    listGlobalSales(db),
  ]);
  const total = counted?.total ?? 0;
  const totalPages = Math.ceil(total / query.limit);
  return {
    products: rows.map(toProduct),
    pages: totalPages,
    totalPages,
    page: query.offset,
    total,
    globalSales,
  };
}

export async function getProduct(db: Db, id: number): Promise<Product | null> {
  const row = await findProductRow(db, id);
  return row ? toProduct(row) : null;
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

export async function listSales(db: Db, limit: number | undefined): Promise<Sale[]> {
  const rows = await db.query.sales.findMany({
    orderBy: [asc(sales.id)],
    limit,
    with: {
      categories: { columns: {}, with: { category: { columns: { id: true, name: true } } } },
      products: { columns: {}, with: { product: { columns: { id: true, title: true } } } },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    description: row.description,
    percentage: row.percentage,
    day: row.day,
    productAmount: row.productAmount,
    image: row.image,
    categories: row.categories.map(({ category }) => category).sort((a, b) => a.id - b.id),
    products: row.products.map(({ product }) => product).sort((a, b) => a.id - b.id),
  }));
}

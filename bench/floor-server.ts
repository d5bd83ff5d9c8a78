/**
 * The floor of `npm run bench:catalog`: GET /api/products with no framework — node:http,
 * the driver (pg, or PGlite in this process) and the listing's two statements (the page's ids, then those
 * products with their pictures, category ids, brand, specifications and variants), each count asked once per filter as Voltio caches it, the
 * categories and sales read once at start. It sends the very bytes Voltio sends (the benchmark compares them
 * before measuring), so Voltio's req/s divided by this one's is what Voltio's own code costs.
 *
 * Only what the benchmark asks is understood: offset, limit, order=ASC|DESC, categoryId, minPrice, maxPrice.
 * Not a product: no validation, no security, no search.
 *
 * Env: PORT, and DATABASE_URL (PostgreSQL) or DATA_DIR (whose pglite/ store no other process has open, as the server reads it).
 */
import { createServer } from "node:http";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { ratingAverage } from "@voltio/domain/reviews";
import { AVAILABLE_STOCK_SQL } from "../apps/server/src/modules/inventory/stock";

type Query = (name: string, text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

async function connect(): Promise<Query> {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    return async (name, text, values) => (await pool.query({ name, text, values })).rows;
  }
  const lite = await PGlite.create({ dataDir: `${process.env.DATA_DIR}/pglite`, extensions: { pg_trgm } });
  return async (_name, text, values) => (await lite.query<Record<string, unknown>>(text, values)).rows;
}

const query = await connect();

interface Terms {
  id: number;
  percentage: number;
  day: string;
  productAmount: number;
}
const sales = (await query(
  "floor_sales",
  `select id, percentage, day, product_amount as "productAmount" from sales order by id`,
  [],
)) as unknown as Terms[];
const saleById = new Map(sales.map((sale) => [sale.id, sale]));
const categoryNames = new Map(
  (await query("floor_categories", "select id, name from categories", [])).map((row) => [
    row.id as number,
    row.name as string,
  ]),
);
const group = async (name: string, text: string) => {
  const grouped = new Map<number, Terms[]>();
  for (const row of await query(name, text, [])) {
    const key = row.key as number;
    grouped.set(key, [...(grouped.get(key) ?? []), saleById.get(row.sale_id as number)!]);
  }
  return grouped;
};
const salesByProduct = await group(
  "floor_product_sales",
  "select sale_id, product_id as key from sale_products order by sale_id",
);
const salesByCategory = await group(
  "floor_category_sales",
  "select sale_id, category_id as key from sale_categories order by sale_id",
);
const linked = new Set(
  (
    await query(
      "floor_linked",
      "select sale_id from sale_products union select sale_id from sale_categories",
      [],
    )
  ).map((row) => row.sale_id as number),
);
const globalSales = sales.filter((sale) => !linked.has(sale.id));

// The stock shown is Voltio's: the shelf less the checkouts' active holds (the same SQL, not a copy of it).
const ROWS = `select p.id, p.title, p.name, p.price_cents, p.shipping_cost_cents, ${AVAILABLE_STOCK_SQL} as stock,
  p.description,
  (select coalesce(json_agg(json_build_object('url', i.url, 'altText', i.alt_text) order by i.position), '[]')
   from product_images i where i.product_id = p.id and i.variant_id is null) as images,
  (select coalesce(json_agg(pc.category_id order by pc.category_id), '[]')
   from product_categories pc where pc.product_id = p.id) as category_ids,
  p.rating_sum, p.rating_count,
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
   from product_variants v where v.product_id = p.id and v.retired_at is null) as variants
  from products p where p.id = any($1::int[])`;

interface VariantRow {
  priceCents: number;
  [field: string]: unknown;
}

const counts = new Map<string, number>();

async function listing(params: URLSearchParams): Promise<string> {
  const limit = Number(params.get("limit") ?? 16);
  const page = Number(params.get("offset") ?? 1);
  const conditions = ["deleted_at is null", "stock > 0"];
  const values: unknown[] = [];
  const categoryId = params.get("categoryId");
  if (categoryId !== null) {
    values.push(Number(categoryId));
    conditions.push(
      `exists (select 1 from product_categories pc where pc.product_id = products.id and pc.category_id = $${values.length})`,
    );
  }
  for (const [name, operator] of [
    ["minPrice", ">="],
    ["maxPrice", "<="],
  ] as const) {
    const price = params.get(name);
    if (price === null) continue;
    values.push(Math.round(Number(price) * 100));
    conditions.push(`price_cents ${operator} $${values.length}`);
  }
  const order = params.get("order");
  const orderBy =
    order === "ASC" ? "price_cents asc, id asc" : order === "DESC" ? "price_cents desc, id asc" : "id asc";
  const where = conditions.join(" and ");
  const shape = `${where}|${orderBy}`;

  let total = counts.get(shape + JSON.stringify(values));
  if (total === undefined) {
    const [row] = await query("", `select count(*)::int as total from products where ${where}`, values);
    total = row!.total as number;
    counts.set(shape + JSON.stringify(values), total);
  }
  // Named as Voltio names it: not with a price range, which PostgreSQL must plan with its values.
  const named = params.get("minPrice") === null && params.get("maxPrice") === null;
  const ids = (
    await query(
      named ? `floor_page_${Buffer.from(shape).toString("base64url").slice(-40)}` : "",
      `select id from products where ${where} order by ${orderBy} limit $${values.length + 1} offset $${values.length + 2}`,
      [...values, limit, (page - 1) * limit],
    )
  ).map((row) => row.id as number);
  const rows = ids.length ? await query("floor_rows", ROWS, [ids]) : [];
  const byId = new Map(rows.map((row) => [row.id as number, row]));
  const products = ids.map((id) => {
    const row = byId.get(id)!;
    const categoryIds = row.category_ids as number[];
    const categorySales = new Map<number, Terms>();
    for (const categoryId of categoryIds)
      for (const sale of salesByCategory.get(categoryId) ?? []) categorySales.set(sale.id, sale);
    return {
      id,
      title: row.title,
      name: row.name,
      price: (row.price_cents as number) / 100,
      shippingCost: (row.shipping_cost_cents as number) / 100,
      stock: row.stock,
      description: row.description,
      images: row.images,
      categories: categoryIds.map((categoryId) => ({
        id: categoryId,
        name: categoryNames.get(categoryId) ?? "",
      })),
      sales: {
        productSales: salesByProduct.get(id) ?? [],
        categorySales: [...categorySales.values()].sort((a, b) => a.id - b.id),
      },
      rating: {
        average: ratingAverage(row.rating_sum as number, row.rating_count as number),
        count: row.rating_count,
      },
      brand: row.brand,
      specs: row.specs,
      options: row.options,
      variants: (row.variants as VariantRow[]).map(({ priceCents, ...variant }) => ({
        ...variant,
        price: priceCents / 100,
      })),
    };
  });
  const totalPages = Math.ceil(total / limit);
  return JSON.stringify({ products, pages: totalPages, totalPages, page, total, globalSales });
}

const server = createServer((request, response) => {
  const url = new URL(request.url!, "http://floor");
  // bench/server.ts's handshake: this server proves it is the one just started by serving its PUBLIC_URL.
  if (url.pathname === "/robots.txt") {
    response.end(`Sitemap: ${process.env.PUBLIC_URL}/sitemap.xml\n`);
    return;
  }
  if (url.pathname !== "/api/products") {
    response.writeHead(404).end();
    return;
  }
  listing(url.searchParams).then(
    (body) => response.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(body),
    (error: Error) => response.writeHead(500).end(error.message),
  );
});
server.listen(Number(process.env.PORT), "127.0.0.1", () =>
  console.log(`Voltio is running at ${process.env.PUBLIC_URL} (the floor).`),
);
process.on("SIGTERM", () => server.close(() => process.exit(0)));

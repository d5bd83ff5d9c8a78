/**
 * What the PostgreSQL benchmarks share: their knobs, a fresh demo database and the server's environment.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type Database } from "../apps/server/src/db/client";
import { seedDemoStore } from "../apps/server/src/db/seed/demo-store";

/** BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the role .ci/run creates. */
export const postgresUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://voltio:voltio@127.0.0.1:5432/postgres";

/** A whole-number knob from the environment; a bad value stops the run (exit code 2). */
export function knob(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  if (!/^[1-9][0-9]*$/.test(raw) || Number(raw) < min) {
    console.error(`${name}=${JSON.stringify(raw)} must be a whole number of at least ${min}`);
    process.exit(2);
  }
  return Number(raw);
}

/** The median: of an even count, halfway between the two middle values. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = sorted.length / 2;
  return Number.isInteger(half) ? (sorted[half - 1]! + sorted[half]!) / 2 : sorted[Math.floor(half)]!;
}

/**
 * Whether a run writes docs/benchmarks.md: only with every size knob at its default (a smoke run leaves it
 * alone), unless BENCH_REPORT=true/false says otherwise.
 */
export function reportWanted(knobs: readonly string[]): boolean {
  if (process.env.BENCH_REPORT !== undefined) return process.env.BENCH_REPORT === "true";
  return !knobs.some((name) => name in process.env);
}

/** Drops and recreates database `name` on the PostgreSQL server, migrated and seeded with the demo store. */
export async function freshDemoDatabase(
  name: string,
  fill?: (database: Database) => Promise<void>,
): Promise<string> {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  await seeded(await openDatabase({ url: url.toString() }), fill);
  return url.toString();
}

/**
 * The embedded database's counterpart: a fresh DATA_DIR under data/ whose PGlite store (DATA_DIR/pglite, as
 * the server opens it) is migrated and seeded. Returns the DATA_DIR.
 */
export async function freshDemoDataDir(
  name: string,
  fill?: (database: Database) => Promise<void>,
): Promise<string> {
  const dataDir = fileURLToPath(new URL(`../data/${name}`, import.meta.url));
  rmSync(dataDir, { recursive: true, force: true });
  await seeded(await openDatabase({ dataDir: `${dataDir}/pglite` }), fill);
  return dataDir;
}

async function seeded(database: Database, fill?: (database: Database) => Promise<void>) {
  try {
    await database.migrate();
    await seedDemoStore(database.db);
    await fill?.(database);
  } finally {
    await database.close();
  }
}

/**
 * The server's environment on that PostgreSQL database (or, without one, on the embedded database of the
 * DATA_DIR the caller adds): no demo logins, warnings and errors logged only.
 */
export const serverEnv = (databaseUrl?: string) => ({
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  DEMO: "false",
  // The benchmarks sign the demo admin in with a password alone.
  ADMIN_REQUIRE_2FA: "false",
  LOG_LEVEL: "warn",
  JWT_SECRET: "bench-secret-bench-secret-bench-secret-1234",
  DATABASE_POOL_SIZE: "10",
});

/** The word of the broad search: 31 of the 59 demo products have it, so about half the generated ones. */
export const BROAD_WORD = "usb";

/**
 * A fill for freshDemoDatabase / freshDemoDataDir: the demo store grown to `products` products, each generated
 * one a variation of a demo product (real titles, words and category mixes).
 */
export const generateProducts =
  (products: number) =>
  async (database: Database): Promise<void> => {
    if (products <= 59) return;
    const started = Date.now();
    const { db } = database;
    await db.execute(sql`
    insert into products (title, name, price_cents, shipping_cost_cents, stock, description, brand_id, options)
    select t.title || ' ' || g, t.name || ' v' || g, greatest(100, (t.price_cents * (0.5 + (g % 97) / 97.0))::int),
           case when g % 7 = 0 then 0 else t.shipping_cost_cents end, case when g % 50 = 0 then 0 else 1 + g % 100 end,
           t.description, c.brand_id,
           case when c.options = '[]'::jsonb then ${sql.raw(`'${GENERATED_OPTIONS}'`)}::jsonb else c.options end
    from generate_series(1, ${products - 59}::int) g join products t on t.id = 1 + g % 59
    -- The brand and options of the product whose categories it copies below (its title's neighbour).
    join products c on c.id = 1 + (g - 1) % 59`);
    await db.execute(sql`
    insert into product_images (product_id, url, alt_text, position)
    select p.id, i.url, p.title, i.position from products p
    join product_images i on i.product_id = 1 + (p.id - 60) % 59 and i.position < 2 where p.id > 59`);
    await db.execute(sql`
    insert into product_categories (product_id, category_id)
    select p.id, c.category_id from products p join product_categories c on c.product_id = 1 + (p.id - 60) % 59
    where p.id > 59`);
    await generateCatalogueStructure(database);
    await db.execute(sql`vacuum analyze`);
    const [counted] = (
      (await db.execute(sql`
      select count(*)::int as n,
             count(*) filter (where title || ' ' || name || ' ' || description ~* ${`\\m${BROAD_WORD}\\M`})::int as broad
      from products`)) as unknown as { rows: { n: number; broad: number }[] }
    ).rows;
    const [shape] = (
      (await db.execute(sql`
      select count(*) filter (where retired_at is null)::int as variants,
             (select count(*)::int from product_specs) as specs from product_variants`)) as unknown as {
        rows: { variants: number; specs: number }[];
      }
    ).rows;
    console.log(
      `${database.kind}: ${counted!.n} products (${shape!.variants} variants, ${shape!.specs} specification values) in ${((Date.now() - started) / 1000).toFixed(1)} s; '${BROAD_WORD}' is in ${((100 * counted!.broad) / counted!.n).toFixed(0)}% of them`,
    );
  };

/** What a generated product of a demo product sold one way is sold in: three colours. */
const GENERATED_COLOURS = ["Black", "White", "Silver"];
const GENERATED_OPTIONS = JSON.stringify([{ name: "Colour", values: GENERATED_COLOURS }]);

/**
 * Issue 41's catalogue shape for the generated products: the brand and specifications of the demo product whose
 * categories each copies (sizes varied, so ranges have more values), and ~3 variants each: the demo product's own
 * option values when it has options, else three colours. Prices and stock keep the product row as generated
 * (the lowest variant costs its price, the variants' stock adds up to its stock).
 */
async function generateCatalogueStructure({ db }: Database): Promise<void> {
  // A copy's sizes in GB: the demo value, doubled for every third copy (RAM 16 → 32 GB, 2 TB → 4 TB).
  await db.execute(sql`
    insert into product_specs (product_id, attribute_id, number_value, text_value)
    select p.id, s.attribute_id,
           s.number_value * case when a.unit = 'GB' and p.id % 3 = 0 then 2 else 1 end, s.text_value
    from products p join product_specs s on s.product_id = 1 + (p.id - 60) % 59
    join attributes a on a.id = s.attribute_id where p.id > 59`);
  // The template's live variants with options, or three colours; the first at the product's price, the others
  // dearer; the stock split so that it adds up to the product's.
  await db.execute(sql`
    insert into product_variants (product_id, sku, options, price_cents, stock, position)
    select p.id, 'G' || p.id || '-' || k.n, k.options,
           p.price_cents + k.n * 1000,
           case when k.n = 0 then p.stock - (k.count - 1) * (p.stock / k.count) else p.stock / k.count end,
           k.n
    from products p
    cross join lateral (
      select (row_number() over (order by v.position, v.id) - 1)::int as n, v.options, count(*) over ()::int as count
      from product_variants v
      where v.product_id = 1 + (p.id - 60) % 59 and v.retired_at is null and v.options <> '{}'::jsonb
      union all
      select c.n - 1, jsonb_build_object('Colour', c.colour), ${GENERATED_COLOURS.length}
      from unnest(${sql.raw(`'{${GENERATED_COLOURS.join(",")}}'`)}::text[]) with ordinality as c(colour, n)
      where not exists (select 1 from product_variants v where v.product_id = 1 + (p.id - 60) % 59
        and v.retired_at is null and v.options <> '{}'::jsonb)
    ) k
    where p.id > 59`);
  // The default variant each product was given on insert: sold as its options now.
  await db.execute(sql`
    update product_variants set retired_at = now() where product_id > 59 and options = '{}'::jsonb`);
}

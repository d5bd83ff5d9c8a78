import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { dropWhenFree, postgresUrlOf, testDatabaseKind, withPostgresAdmin } from "../../test/database";
import { migrationsFolder } from "./client";

/**
 * Migration 0026 (issue 41, ADR 0023) on a store that already sells: every product gets its default variant
 * (SKU P<id>, the product's price and stock), and every order line, stock hold and back-in-stock request
 * points at it, with nothing lost — on whichever database this run tests.
 */
const VARIANTS_MIGRATION = "0026_catalogue_variants";

/** The shipped migrations up to (not including) 0026: a copy of the folder with a shorter journal. */
function migrationsBefore(tag: string): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), "voltio-migrations-"));
  mkdirSync(join(folder, "meta"));
  const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  const upTo = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(upTo).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, upTo);
  for (const entry of entries)
    copyFileSync(join(migrationsFolder, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** A store before 0026: two products, carts, a wishlist, a paid and a held purchase, a review, a request. */
const STORE_BEFORE = `
  insert into users (id, first_name, last_name, email, password_hash) values
    (1, 'Ana', 'Buyer', 'ana@voltio.test', 'x'), (2, 'Ben', 'Buyer', 'ben@voltio.test', 'x');
  insert into products (id, title, name, price_cents, stock, description) values
    (1, 'Logitech M720', 'mouse', 4999, 7, 'A mouse'), (2, 'Dell U2723QE', 'monitor', 57900, 0, 'A monitor');
  insert into orders (id, user_id, product_id, status, amount) values
    (1, 1, 1, 'inCart', 2), (2, 1, 2, 'inWishList', 1), (3, 2, 1, 'inCart', 1);
  insert into orders (id, user_id, product_id, status, amount, unit_price_cents, line_total_cents,
      shipping_cost_cents, server_purchase_date) values
    (4, 2, 1, 'finished', 1, 4999, 4999, 0, now()), (5, 1, 1, 'pending', 2, 4999, 9998, 0, now());
  insert into checkouts (id, user_id, provider, order_ids, bulk_order_ids, amount_cents, base_url,
      shipping_address, expires_at) values
    (1, 1, 'sandbox', '{5}', '{}', 9998, 'http://localhost:3000', '{}', now() + interval '1 hour');
  insert into stock_holds (checkout_id, product_id, units, expires_at) values (1, 1, 2, now() + interval '1 hour');
  insert into stock_alerts (user_id, product_id) values (1, 2);
  insert into comments (user_id, product_id, rating, content) values (2, 1, 5, 'Quiet clicks');
`;

const COUNTS = `select (select count(*) from orders)::int as orders, (select count(*) from stock_holds)::int as holds,
  (select count(*) from stock_alerts)::int as alerts, (select count(*) from comments)::int as reviews,
  (select sum(stock) from products)::int as stock`;

/** What the test reads and writes: the same few statements on PGlite and on PostgreSQL. */
interface Raw {
  exec(text: string): Promise<void>;
  rows<T>(text: string): Promise<T[]>;
}

async function checkMigration(raw: Raw, migrateTo: (folder: string) => Promise<void>) {
  const before = migrationsBefore(VARIANTS_MIGRATION);
  try {
    await migrateTo(before.folder);
  } finally {
    before.remove();
  }
  await raw.exec(STORE_BEFORE);
  const [counted] = await raw.rows<Record<string, number>>(COUNTS);

  await migrateTo(migrationsFolder);

  expect((await raw.rows<Record<string, number>>(COUNTS))[0]).toEqual(counted);
  expect(
    await raw.rows(
      `select product_id as "productId", sku, price_cents as "priceCents", stock, options, retired_at as "retiredAt"
       from product_variants order by product_id`,
    ),
  ).toEqual([
    { productId: 1, sku: "P1", priceCents: 4999, stock: 7, options: {}, retiredAt: null },
    { productId: 2, sku: "P2", priceCents: 57900, stock: 0, options: {}, retiredAt: null },
  ]);
  for (const table of ["orders", "stock_holds", "stock_alerts"]) {
    const wrong = await raw.rows(
      `select t.id from ${table} t left join product_variants v on v.id = t.variant_id
       where v.product_id is distinct from t.product_id`,
    );
    expect(wrong, `${table} lines not on their product's default variant`).toEqual([]);
  }
  // The store goes on selling: a new line without a variant gets the default one, and a sale of it moves
  // the product's stock.
  await raw.exec(
    `insert into orders (id, user_id, product_id, status, amount) values (100, 2, 2, 'inWishList', 1)`,
  );
  await raw.exec(`update product_variants set stock = stock - 2 where product_id = 1`);
  expect(await raw.rows(`select id, stock from products order by id`)).toEqual([
    { id: 1, stock: 5 },
    { id: 2, stock: 0 },
  ]);
}

const onPostgres = testDatabaseKind() === "postgres";

describe("migration 0026 on a store with orders, holds, requests and reviews", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it.skipIf(onPostgres)("moves everything to default variants on the embedded database", async () => {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    cleanups.push(() => client.close());
    const db = drizzlePglite(client);
    await checkMigration(
      {
        exec: async (text) => void (await client.exec(text)),
        rows: async <T>(text: string) => (await client.query<T>(text)).rows,
      },
      (folder) => migratePglite(db, { migrationsFolder: folder }),
    );
  });

  it.runIf(onPostgres)(
    "moves everything to default variants on PostgreSQL",
    async () => {
      const name = `voltio_variants_${randomBytes(6).toString("hex")}`;
      await withPostgresAdmin((admin) => admin.query(`create database ${name}`));
      const pool = new pg.Pool({ connectionString: postgresUrlOf(name), max: 1 });
      cleanups.push(async () => {
        await pool.end();
        await withPostgresAdmin((admin) => dropWhenFree(admin, name));
      });
      const db = drizzlePg(pool);
      await checkMigration(
        {
          exec: async (text) => void (await pool.query(text)),
          rows: async <T>(text: string) => (await pool.query(text)).rows as T[],
        },
        (folder) => migratePg(db, { migrationsFolder: folder }),
      );
    },
    60_000,
  );
});

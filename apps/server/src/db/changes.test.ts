import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type App } from "../app";
import { createTestApp, type TestContext } from "../../test/app";
import { testDatabaseKind } from "../../test/database";
import { categories, productCategories, products } from "./schema";

/**
 * Two processes on one PostgreSQL database. A change written through one (or by SQL) is
 * served by the other within a second, though the other cached its replies for 30 s. The embedded database
 * belongs to one process: there is nothing to listen to.
 */
let t: TestContext;
let a: App;
let b: App;
beforeAll(async () => {
  t = await createTestApp();
  const config = { ...t.config, databaseUrl: t.database.url };
  [a, b] = [await buildApp(config, t.database.db), await buildApp(config, t.database.db)];
});
afterAll(async () => {
  await a.close();
  await b.close();
  await t.close();
});

/** What B serves for a product, until it says `expected` (at most 1 s). */
async function seenByB(url: string, read: (body: Record<string, unknown>) => unknown, expected: unknown) {
  const started = Date.now();
  for (;;) {
    const reply = await b.inject({ url });
    if (read(reply.json()) === expected) return Date.now() - started;
    if (Date.now() - started > 1000)
      throw new Error(`B still serves ${String(read(reply.json()))} after 1 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const onPostgres = testDatabaseKind() === "postgres";

// The embedded database belongs to one process, and delivers a transaction's notifications as it commits.
describe.skipIf(onPostgres)("changes on the embedded database", () => {
  it("empties the process's own copies when SQL by hand changes a product, with no listener to wait for", async () => {
    expect(t.database.url).toBeUndefined();
    expect((await a.inject({ url: "/api/health/ready" })).json()).toMatchObject({ failing: [] });
    const url = "/api/products/1";
    await a.inject({ url });
    expect((await a.inject({ url })).headers["x-cache"]).toBe("hit");
    await t.database.db.update(products).set({ stock: 321 }).where(eq(products.id, 1));
    await expect
      .poll(async () => (await a.inject({ url })).json<{ stock: number }>().stock, { timeout: 1000 })
      .toBe(321);
  });
});

describe.runIf(onPostgres)("changes reach every process", () => {
  it("serves an edit, a sale's stock and a retirement made elsewhere within a second", async () => {
    const ready = async (app: App) =>
      (await app.inject({ url: "/api/health/ready" })).json<{ failing: string[] }>();
    await expect.poll(async () => (await ready(b)).failing.includes("listen"), { timeout: 5000 }).toBe(false);
    const url = "/api/products/1";
    // B caches the product (CATALOG_CACHE_TTL_SECONDS is 30).
    const before = (await b.inject({ url })).json<{ title: string; stock: number }>();
    expect((await b.inject({ url })).headers["x-cache"]).toBe("hit");

    const edited = await a.inject({
      method: "PUT",
      url: "/api/products/1",
      headers: await t.bearer(1),
      payload: {
        title: "Edited through A",
        name: "thing",
        price: 10,
        shippingCost: 0,
        description: "Edited. ",
        stock: before.stock,
        images: [],
        categories: ["Things"],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await seenByB(url, (body) => body.title, "Edited through A");

    // Stock written by SQL, as another tool would: B follows too.
    await t.database.db.update(products).set({ stock: 777 }).where(eq(products.id, 1));
    await seenByB(url, (body) => body.stock, 777);

    // A checkout through A holds a unit: B shows one fewer for sale.
    const shopper = await t.bearer(2);
    const forSale = (await b.inject({ url: "/api/products/3" })).json<{ stock: number }>().stock;
    const bought = await a.inject({
      method: "POST",
      url: "/api/order",
      headers: shopper,
      payload: { status: "pending", productId: 3, amount: 1 },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const paying = await a.inject({
      method: "POST",
      url: "/api/sandbox/pay",
      headers: shopper,
      payload: { baseURL: "http://localhost:3000" },
    });
    expect(paying.statusCode, paying.body).toBe(200);
    await seenByB("/api/products/3", (body) => body.stock, forSale - 1);

    // The LISTEN connections are cut and a write lands before they are back: its notification is lost, so a
    // process that reconnects drops every copy it had.
    expect((await b.inject({ url })).json<{ stock: number }>().stock).toBe(777);
    await t.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'voltio-listen' and datname = current_database()`,
    );
    await t.database.db.update(products).set({ stock: 555 }).where(eq(products.id, 1));
    await expect
      .poll(async () => (await b.inject({ url })).json<{ stock: number }>().stock, { timeout: 3000 })
      .toBe(555);
    await expect.poll(async () => (await ready(b)).failing, { timeout: 3000 }).toEqual([]);

    // Retired: gone from B's search.
    await t.database.db.execute(sql`update products set deleted_at = now() where id = 1`);
    await seenByB("/api/products?search=Edited%20through", (body) => body.total, 0);
  });

  it("takes a category out of the other process's menus when its last product for sale sells out", async () => {
    const [category] = await t.database.db
      .insert(categories)
      .values({ name: "Only one left" })
      .returning({ id: categories.id });
    const [product] = await t.database.db
      .insert(products)
      .values({ title: "The only one", name: "thing", priceCents: 1000, stock: 1 })
      .returning({ id: products.id });
    await t.database.db
      .insert(productCategories)
      .values({ productId: product!.id, categoryId: category!.id });
    const menuOfB = async () =>
      (await b.inject({ url: "/api/categories?withProducts=true" }))
        .json<{ id: number }[]>()
        .some((listed) => listed.id === category!.id);
    await expect.poll(menuOfB, { timeout: 1000 }).toBe(true);
    // Sold out through A's database writes: B's cached menu follows.
    await t.database.db.update(products).set({ stock: 0 }).where(eq(products.id, product!.id));
    await expect.poll(menuOfB, { timeout: 1000 }).toBe(false);
  });

  it("moves the other process's listing count when a product is retired (counts are kept for a minute)", async () => {
    const url = "/api/products?offset=1";
    // B keeps that count (and the reply): the same question again is answered from memory, once the
    // notifications of the earlier tests' writes have come in (each one empties B's replies).
    await expect
      .poll(async () => (await b.inject({ url })).headers["x-cache"], { timeout: 1000 })
      .toBe("hit");
    const before = (await b.inject({ url })).json<{ total: number; products: { id: number }[] }>();
    const retired = await a.inject({
      method: "DELETE",
      url: `/api/products/${before.products[0]!.id}`,
      headers: await t.bearer(1),
    });
    expect(retired.statusCode, retired.body).toBe(200);
    await seenByB(url, (body) => body.total, before.total - 1);
  });
});

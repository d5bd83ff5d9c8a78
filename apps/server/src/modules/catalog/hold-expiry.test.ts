import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../app";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, SHOP_BASE_URL, type Shop } from "../../../test/shop";
import { products, stockHolds } from "../../db/schema";

/**
 * A hold's end writes nothing, yet within a second of it every process's cached replies
 * show the units for sale again. Two app instances on one database stand for two processes (on PostgreSQL
 * each LISTENs on a connection of its own): each hears of the other's holds only through the change feed.
 */
let t: TestContext;
let a: App;
let b: App;
let store: Shop;

beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
  // Shorter than STOCK_HOLD_SECONDS allows (10 s at least): the test waits for them to run out.
  const config = { ...t.config, databaseUrl: t.database.url };
  a = await buildApp({ ...config, stockHoldSeconds: 3 }, t.database.db);
  b = await buildApp({ ...config, stockHoldSeconds: 4 }, t.database.db);
});
afterAll(async () => {
  await a.close();
  await b.close();
  await t.close();
});

/** Reads an app's reply until `read` gives `expected` (when it did), or fails once `deadline` passed. */
async function served(
  app: App,
  url: string,
  read: (body: unknown) => unknown,
  expected: unknown,
  deadline: number,
) {
  for (;;) {
    const seen = read((await app.inject({ url })).json());
    if (seen === expected) return Date.now();
    if (Date.now() > deadline) throw new Error(`${url} still shows ${String(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A product of one unit, its page and a search listing it, as every app serves them. */
async function lastUnit(title: string) {
  const [row] = await t.database.db
    .insert(products)
    .values({ title, name: "lantern", priceCents: 1000, stock: 1 })
    .returning({ id: products.id });
  const id = row!.id;
  const views = [
    { url: `/api/products/${id}`, stock: (body: unknown) => (body as { stock: number }).stock },
    {
      url: `/api/products?search=${encodeURIComponent(title)}`,
      stock: (body: unknown) =>
        (body as { products: { id: number; stock: number }[] }).products.find((listed) => listed.id === id)
          ?.stock,
    },
  ];
  /** Every app's page and listing show `stock`, by `deadline`: when the last of them did. */
  const shown = async (stock: number, deadline: number) =>
    Math.max(
      ...(await Promise.all(
        [a, b].flatMap((app) => views.map((view) => served(app, view.url, view.stock, stock, deadline))),
      )),
    );
  /**
   * Replies from the cache, which nothing written empties from here on (once the last write's notification
   * reached both processes: one may read the database before it heard).
   */
  const cached = async () => {
    for (const app of [a, b])
      for (const view of views)
        await expect
          .poll(async () => (await app.inject({ url: view.url })).headers["x-cache"], { timeout: 2000 })
          .toBe("hit");
  };
  return { id, shown, cached };
}

/** A shopper's checkout through `app` holds the unit: when the hold ends. */
async function held(app: App, productId: number) {
  const me = await store.newShopper();
  await store.buyNow(me, productId);
  const paying = await app.inject({
    method: "POST",
    url: "/api/sandbox/pay",
    headers: me,
    payload: { baseURL: SHOP_BASE_URL },
  });
  expect(paying.statusCode, paying.body).toBe(200);
  const [hold] = await t.database.db.select().from(stockHolds).where(eq(stockHolds.productId, productId));
  return hold!.expiresAt.getTime();
}

describe("a hold that runs out", () => {
  it("shows its units for sale again in every process's cached replies within a second, with no write", async () => {
    const first = await lastUnit("Last lantern of the shelf");
    const second = await lastUnit("Last candle of the shelf");
    await first.shown(1, Date.now() + 5000);
    await second.shown(1, Date.now() + 5000);

    // The last units are held: one through A (3 s), the other through B (4 s), which ends later.
    const firstEnds = await held(a, first.id);
    const secondEnds = await held(b, second.id);
    expect(secondEnds).toBeGreaterThan(firstEnds);
    await first.shown(0, firstEnds);
    await second.shown(0, firstEnds);
    await first.cached();
    await second.cached();

    // Nothing is written when a hold ends: each process empties its replies at that moment by itself, and
    // then waits for the next one.
    const firstBack = await first.shown(1, firstEnds + 1000);
    expect(firstBack).toBeGreaterThanOrEqual(firstEnds);
    // Every reply went then: the other product's is read again, still held, and kept until its own end.
    await second.shown(0, secondEnds);
    await second.cached();
    const secondBack = await second.shown(1, secondEnds + 1000);
    expect(secondBack).toBeGreaterThanOrEqual(secondEnds);
    const holds = await t.database.db.select().from(stockHolds);
    expect(holds.filter((hold) => [first.id, second.id].includes(hold.productId))).toHaveLength(2);
  });
});

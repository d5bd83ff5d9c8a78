import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StatsReply } from "@voltio/domain/admin";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { bulkOrders, orders, orderStatsDaily, productStatsDaily } from "../../db/schema";
import { countStatsInTimeZone } from "./service";

/**
 * GET /stats: the dashboard's figures from the day summaries that the triggers keep on
 * orders and bulk_orders, checked on a small known set of purchases in March 2025 (far from the demo's).
 */
let t: TestContext;
let store: Shop;
let admin: Headers;
/** The demo shopper: the purchases below are theirs. */
const shopperId = 2;

// The store's 'today' for the defaults.
const NOW = new Date("2025-03-20T12:00:00Z");

const stats = async (query = "", headers = admin) => {
  const reply = await t.app.inject({ url: `/api/stats${query}`, headers });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<StatsReply>();
};

type Line = {
  productId: number;
  status: "finished" | "preparing" | "delivered" | "cancelled" | "pending";
  amount: number;
  cents: number;
  at?: string;
  bulkOrderId?: number;
};
async function line({ productId, status, amount, cents, at, bulkOrderId }: Line) {
  const [row] = await t.database.db
    .insert(orders)
    .values({
      userId: shopperId,
      productId,
      status,
      amount,
      unitPriceCents: cents / amount,
      lineTotalCents: cents,
      bulkOrderId,
      serverPurchaseDate: at ? new Date(at) : null,
    })
    .returning({ id: orders.id });
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  store = shop(t);
  admin = await t.bearer(1);
});
afterAll(() => t.close());

describe("who may read the statistics", () => {
  it("guests get 401, shoppers 403, admins 200", async () => {
    expect((await t.app.inject({ url: "/api/stats" })).statusCode).toBe(401);
    const shopper = await store.newShopper({ address: false });
    expect((await t.app.inject({ url: "/api/stats", headers: shopper })).statusCode).toBe(403);
    expect((await t.app.inject({ url: "/api/stats", headers: admin })).statusCode).toBe(200);
  });
});

describe("GET /stats", () => {
  it("sums paid purchases per day, counts orders per status and ranks products by units", async () => {
    const [a, b, c] = [await store.newProduct(), await store.newProduct(), await store.newProduct()];
    // March 10: a single order of 2 a, and a bulk order of 1 a + 3 b: two purchases, 75.00.
    await line({ productId: a, status: "finished", amount: 2, cents: 2000, at: "2025-03-10T09:00:00Z" });
    const [bulk] = await t.database.db
      .insert(bulkOrders)
      .values({
        userId: shopperId,
        status: "finished",
        combinedPriceCents: 5500,
        combinedShippingCostCents: 0,
        serverPurchaseDate: new Date("2025-03-10T23:59:00Z"),
      })
      .returning({ id: bulkOrders.id });
    for (const [productId, amount, cents] of [
      [a, 1, 1000],
      [b, 3, 4500],
    ] as const) {
      await line({
        productId,
        status: "finished",
        amount,
        cents,
        at: "2025-03-10T23:59:00Z",
        bulkOrderId: bulk!.id,
      });
    }
    // March 11: one of b delivered (15.00); 5 c cancelled after payment (no sale); one not paid yet.
    await line({ productId: b, status: "delivered", amount: 1, cents: 1500, at: "2025-03-11T00:00:00Z" });
    const cancelled = await line({
      productId: c,
      status: "cancelled",
      amount: 5,
      cents: 5000,
      at: "2025-03-11T10:00:00Z",
    });
    await line({ productId: c, status: "pending", amount: 1, cents: 1000 });
    // Outside the period.
    await line({ productId: c, status: "finished", amount: 9, cents: 9000, at: "2025-03-13T00:00:00Z" });

    const figures = await stats("?from=2025-03-10&to=2025-03-12");
    expect(figures).toMatchObject({
      from: "2025-03-10",
      to: "2025-03-12",
      salesByDay: [
        { date: "2025-03-10", sales: 75, orders: 2 },
        { date: "2025-03-11", sales: 15, orders: 1 },
        { date: "2025-03-12", sales: 0, orders: 0 },
      ],
      ordersByStatus: [
        { status: "finished", count: 2 },
        { status: "preparing", count: 0 },
        { status: "onDelivery", count: 0 },
        { status: "delivered", count: 1 },
        { status: "cancelled", count: 1 },
      ],
      topProducts: [
        { productId: b, units: 4, sales: 60 },
        { productId: a, units: 3, sales: 30 },
      ],
    });
    expect(figures.topProducts[0]!.title).toMatch(/^Shop test/);

    // Status changes move the figures in the same statement: the admin prepares the single order of a, and
    // the cancelled c turns out delivered after all.
    await t.database.db.update(orders).set({ status: "preparing" }).where(eq(orders.productId, a));
    await t.database.db.update(bulkOrders).set({ status: "preparing" }).where(eq(bulkOrders.id, bulk!.id));
    await t.database.db.update(orders).set({ status: "delivered" }).where(eq(orders.id, cancelled));
    const moved = await stats("?from=2025-03-10&to=2025-03-12");
    expect(moved.ordersByStatus).toEqual([
      { status: "finished", count: 0 },
      { status: "preparing", count: 2 },
      { status: "onDelivery", count: 0 },
      { status: "delivered", count: 2 },
      { status: "cancelled", count: 0 },
    ]);
    expect(moved.salesByDay[1]).toEqual({ date: "2025-03-11", sales: 65, orders: 2 });
    expect(moved.topProducts.map((top) => [top.productId, top.units])).toEqual([
      [c, 5],
      [b, 4],
      [a, 3],
    ]);

    // Deleted rows leave the summaries too.
    await t.database.db.delete(orders).where(inArray(orders.productId, [a, b, c]));
    await t.database.db.delete(bulkOrders).where(eq(bulkOrders.id, bulk!.id));
    const emptied = await stats("?from=2025-03-10&to=2025-03-13");
    expect(emptied.salesByDay.map((day) => day.sales)).toEqual([0, 0, 0, 0]);
    expect(emptied.topProducts).toEqual([]);
  });

  it("ranks products over whole months and the days of the months the period cuts into", async () => {
    const [inside, edges, outside] = [
      await store.newProduct(),
      await store.newProduct(),
      await store.newProduct(),
    ];
    for (const [productId, amount, at] of [
      [inside, 4, "2024-03-01T00:00:00Z"],
      [inside, 4, "2024-04-30T23:00:00Z"],
      [edges, 3, "2024-02-15T12:00:00Z"],
      [edges, 3, "2024-05-10T12:00:00Z"],
      [outside, 50, "2024-02-14T23:59:00Z"],
      [outside, 50, "2024-05-11T00:00:00Z"],
    ] as const) {
      await line({ productId, status: "delivered", amount, cents: amount * 100, at });
    }
    const { topProducts } = await stats("?from=2024-02-15&to=2024-05-10");
    expect(topProducts.map((top) => [top.productId, top.units, top.sales])).toEqual([
      [inside, 8, 8],
      [edges, 6, 6],
    ]);
    const within = await stats("?from=2024-02-16&to=2024-02-28");
    expect(within.topProducts).toEqual([]);
  });

  it("counts a purchase paid through the sandbox on the store's today", async () => {
    const headers = await store.newShopper();
    const productId = await store.newProduct({ priceCents: 2500, shippingCostCents: 300 });
    await store.buyNow(headers, productId, 2);
    // The payment's date is the real clock's, whatever the store's clock says.
    const today = new Date().toISOString().slice(0, 10);
    const [before] = (await stats(`?from=${today}&to=${today}`)).salesByDay;
    const pay = await t.app.inject({
      method: "POST",
      url: "/api/sandbox/pay",
      headers,
      payload: { baseURL: "http://localhost:3000" },
    });
    const carded = await t.app.inject({
      method: "POST",
      url: new URL(pay.json<{ init_point: string }>().init_point).pathname,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" }).toString(),
    });
    const feedback = await t.app.inject({
      url: `/api/sandbox/feedback${new URL(carded.headers.location as string).search}`,
      headers,
    });
    expect(feedback.json()).toMatchObject({ Status: "approved" });

    const after = await stats(`?from=${today}&to=${today}`);
    expect(after.salesByDay).toEqual([
      { date: today, sales: before!.sales + 50, orders: before!.orders + 1 },
    ]);
    expect(after.topProducts).toContainEqual(expect.objectContaining({ productId, units: 2, sales: 50 }));
  });

  it("lists the five newest shoppers, no admins", async () => {
    const emails = [];
    for (let i = 0; i < 6; i++) {
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/user",
        payload: {
          firstName: "newest",
          lastName: `shopper${"abcdef"[i]}`,
          email: `newest-${i}@voltio.test`,
          password: "long-enough-1",
        },
      });
      expect(reply.statusCode).toBe(201);
      emails.push(`newest-${i}@voltio.test`);
    }
    const { latestUsers } = await stats();
    expect(latestUsers.map((user) => user.email)).toEqual(emails.slice(1).reverse());
    expect(latestUsers[0]).toMatchObject({ firstName: "newest", lastName: "shopperf" });
    expect(latestUsers[0]!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("defaults to the 30 days ending on the store's today", async () => {
    const figures = await stats();
    expect(figures).toMatchObject({ from: "2025-02-19", to: "2025-03-20" });
    expect(figures.salesByDay).toHaveLength(30);
    expect((await stats("?to=2025-03-01")).from).toBe("2025-01-31");
    expect((await stats("?from=2025-03-19")).to).toBe("2025-03-20");
  });

  it("refuses dates that don't exist, a period backwards or longer than a year", async () => {
    for (const [query, field, reason] of [
      ["?from=2025-02-30", "from", "must be a date that exists"],
      ["?from=2025-13-01", "from", "must be a date that exists"],
      ["?from=0000-01-01", "from", "must be a date that exists"],
      ["?to=20250301", "to", "must be a date such as 2026-11-24"],
      ["?from=2025-03-02&to=2025-03-01", "from", "must not be after to"],
      ["?from=2024-02-29&to=2025-03-01", "from", "must be at most 366 days before to"],
    ]) {
      const reply = await t.app.inject({ url: `/api/stats${query}`, headers: admin });
      expect(reply.statusCode, query).toBe(400);
      expect(reply.json().details, query).toEqual([{ field, reason }]);
    }
    expect((await stats("?from=2024-03-01&to=2025-03-01")).salesByDay).toHaveLength(366);
  });
});

describe("the store's time zone", () => {
  it("puts a purchase on its day there, and recounts every purchase when it changes", async () => {
    const productId = await store.newProduct();
    // 01:30 UTC on March 5 is still March 4 in Buenos Aires (UTC-3).
    await line({ productId, status: "finished", amount: 1, cents: 700, at: "2025-03-05T01:30:00Z" });
    const onDay = async (day: string) =>
      (
        await t.database.db.select().from(productStatsDaily).where(eq(productStatsDaily.productId, productId))
      ).filter((row) => row.day === day);
    expect(await onDay("2025-03-05")).toHaveLength(1);

    try {
      expect(await countStatsInTimeZone(t.database.db, "America/Argentina/Buenos_Aires")).toBe(true);
      expect(await countStatsInTimeZone(t.database.db, "America/Argentina/Buenos_Aires")).toBe(false);
      expect(await onDay("2025-03-04")).toMatchObject([{ units: 1, salesCents: 700 }]);
      expect(await onDay("2025-03-05")).toEqual([]);
      // New purchases too.
      await line({ productId, status: "finished", amount: 2, cents: 1400, at: "2025-03-05T02:00:00Z" });
      expect(await onDay("2025-03-04")).toMatchObject([{ units: 3, salesCents: 2100 }]);
      await expect(countStatsInTimeZone(t.database.db, "Mars/Olympus_Mons")).rejects.toThrow();
    } finally {
      await countStatsInTimeZone(t.database.db, "UTC");
    }
    expect(await onDay("2025-03-05")).toMatchObject([{ units: 3, salesCents: 2100 }]);
    const [total] = await t.database.db
      .select()
      .from(orderStatsDaily)
      .where(eq(orderStatsDaily.day, "2025-03-05"));
    expect(total).toMatchObject({ status: "finished", orders: 2, units: 3, salesCents: 2100 });
  });
});

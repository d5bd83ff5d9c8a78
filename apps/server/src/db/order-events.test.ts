import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/database";
import type { Database } from "./client";
import { bulkOrders, orderEvents, orders } from "./schema";

/** The purchase history (migration 0021) is written by triggers, whichever code changes an order. */
describe("order_events", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase("demo");
  });
  afterAll(() => database.close());

  const historyOf = async (where: ReturnType<typeof eq>) =>
    (
      await database.db
        .select({
          status: orderEvents.status,
          trackingNumber: orderEvents.trackingNumber,
          at: orderEvents.createdAt,
        })
        .from(orderEvents)
        .where(where)
        .orderBy(asc(orderEvents.id))
    ).map(({ status, trackingNumber }) => (trackingNumber ? `${status}:${trackingNumber}` : status));

  const newLine = async (status: "inCart" | "pending" | "delivered") => {
    const [line] = await database.db
      .insert(orders)
      .values({
        userId: 2,
        productId: 1,
        status,
        amount: 1,
        serverPurchaseDate: status === "delivered" ? new Date("2026-01-02T03:04:05Z") : null,
      })
      .returning({ id: orders.id });
    return line!.id;
  };

  it("follows a single line from paid to delivered, tracking included, and skips the cart and pending", async () => {
    const id = await newLine("inCart");
    const setStatus = (set: Partial<typeof orders.$inferInsert>) =>
      database.db.update(orders).set(set).where(eq(orders.id, id));
    await setStatus({ status: "pending" });
    await setStatus({ status: "finished", serverPurchaseDate: new Date() });
    await setStatus({ status: "preparing" });
    await setStatus({ amount: 1 });
    await setStatus({ status: "onDelivery", trackingNumber: "1Z999", carrier: "UPS" });
    await setStatus({ status: "onDelivery", trackingNumber: "1Z999", carrier: "UPS" });
    await setStatus({ status: "delivered" });
    expect(await historyOf(eq(orderEvents.orderId, id))).toEqual([
      "finished",
      "preparing",
      "onDelivery:1Z999",
      "delivered:1Z999",
    ]);
  });

  it("dates a line written already delivered as paid on its purchase date", async () => {
    const id = await newLine("delivered");
    const events = await database.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, id))
      .orderBy(asc(orderEvents.id));
    expect(events.map((event) => event.status)).toEqual(["finished", "delivered"]);
    expect(events[0]!.createdAt.toISOString()).toBe("2026-01-02T03:04:05.000Z");
  });

  it("keeps a bulk order's history on the bulk order, not on its lines", async () => {
    const [bulk] = await database.db
      .insert(bulkOrders)
      .values({ userId: 2, status: "pending", combinedPriceCents: 100, combinedShippingCostCents: 0 })
      .returning({ id: bulkOrders.id });
    const [line] = await database.db
      .insert(orders)
      .values({ userId: 2, productId: 2, status: "pending", amount: 1, bulkOrderId: bulk!.id })
      .returning({ id: orders.id });
    await database.db.update(bulkOrders).set({ status: "finished" }).where(eq(bulkOrders.id, bulk!.id));
    await database.db.update(orders).set({ status: "finished" }).where(eq(orders.id, line!.id));
    await database.db.update(bulkOrders).set({ status: "cancelled" }).where(eq(bulkOrders.id, bulk!.id));
    expect(await historyOf(eq(orderEvents.bulkOrderId, bulk!.id))).toEqual(["finished", "cancelled"]);
    expect(await historyOf(eq(orderEvents.orderId, line!.id))).toEqual([]);
  });

  it("gives the demo store's purchases their paid history", async () => {
    const rows = await database.db.execute(
      sql`select count(*)::int as n from order_events where status = 'finished' and checkout_id is not null`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(2);
  });
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { checkouts, sandboxCharges } from "../../db/schema";

/**
 * Paying a chosen set of pending orders (ADR 0015): a "Buy now" pays that product only
 * unless the shopper adds the rest; SPEC's client, which names nothing, still pays everything pending.
 */
let t: TestContext;
let store: Shop;
const BASE = "http://localhost:3000";

const pay = (
  headers: Headers,
  selection: { orderIds?: readonly number[]; bulkOrderIds?: readonly number[] } = {},
) =>
  t.app.inject({
    method: "POST",
    url: "/api/sandbox/pay",
    headers,
    payload: { baseURL: BASE, ...selection },
  });

/** The sandbox's charge of a Pay: what the provider was asked to take. */
async function chargeOf(reply: Awaited<ReturnType<typeof pay>>) {
  expect(reply.statusCode, reply.body).toBe(200);
  const [charge] = await t.database.db
    .select()
    .from(sandboxCharges)
    .where(eq(sandboxCharges.id, reply.json<{ id: string }>().id));
  return charge!;
}

/** What others may still buy: the stock less the units held by open checkouts. */
const shownStock = async (productId: number) =>
  (await t.app.inject({ url: `/api/products/${productId}` })).json<{ stock: number }>().stock;

const openCheckoutsOf = async (headers: Headers) => {
  const me = await t.app.inject({ url: "/api/user", headers });
  const userId = me.json<{ id: number }>().id;
  return t.database.db.select().from(checkouts).where(eq(checkouts.userId, userId));
};

beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
});
afterAll(() => t.close());

describe("POST /{provider}/pay with a selection", () => {
  it("charges only the chosen Buy now, holds only its units, and leaves the rest pending", async () => {
    const me = await store.newShopper();
    const earlier = await store.newProduct({ priceCents: 5000, shippingCostCents: 1000 });
    const bulkA = await store.newProduct({ priceCents: 2000, shippingCostCents: 300 });
    const bulkB = await store.newProduct({ priceCents: 1500, shippingCostCents: 0 });
    const now = await store.newProduct({ priceCents: 7999, shippingCostCents: 500 });
    const earlierLine = await store.buyNow(me, earlier, 2);
    const { bulkId } = await store.buyAll(me, [
      [bulkA, 1],
      [bulkB, 2],
    ]);
    const nowLine = await store.buyNow(me, now);

    const started = await pay(me, { orderIds: [nowLine] });
    expect(await chargeOf(started)).toMatchObject({ amountCents: 8499 });
    // The units of the other pending orders stay for sale.
    expect(await shownStock(now)).toBe(9);
    expect([await shownStock(earlier), await shownStock(bulkA), await shownStock(bulkB)]).toEqual([
      10, 10, 10,
    ]);

    const returned = await store.payWithCard(started.json<{ init_point: string }>().init_point);
    const feedback = await t.app.inject({ url: `/api/sandbox/feedback${returned.search}`, headers: me });
    expect(feedback.json()).toMatchObject({
      Status: "approved",
      order: { products: 79.99, shipping: 5, total: 84.99 },
    });
    expect(await store.orderOf(nowLine)).toMatchObject({ status: "finished" });
    expect(await store.orderOf(earlierLine)).toMatchObject({ status: "pending" });

    // A bulk order chosen alone: its lines and their shipping, summed (ADR 0015).
    expect(await chargeOf(await pay(me, { bulkOrderIds: [bulkId] }))).toMatchObject({ amountCents: 5300 });
    // Naming nothing pays everything pending, as SPEC's client expects: 2 × 50 + 10 shipping, and the bulk order.
    expect(await chargeOf(await pay(me))).toMatchObject({ amountCents: 11000 + 5300 });
  });

  it("reuses the open checkout for the same choice and replaces it, releasing its units, for another", async () => {
    const me = await store.newShopper();
    const a = await store.newProduct({ stock: 3 });
    const b = await store.newProduct({ stock: 3 });
    const lineA = await store.buyNow(me, a);
    const lineB = await store.buyNow(me, b);

    const first = await pay(me, { orderIds: [lineA] });
    expect(first.statusCode, first.body).toBe(200);
    expect((await pay(me, { orderIds: [lineA] })).json()).toEqual(first.json());
    expect([await shownStock(a), await shownStock(b)]).toEqual([2, 3]);

    const second = await pay(me, { orderIds: [lineB, lineA] });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json<{ id: string }>().id).not.toBe(first.json<{ id: string }>().id);
    expect([await shownStock(a), await shownStock(b)]).toEqual([2, 2]);

    const third = await pay(me, { orderIds: [lineB] });
    expect(third.statusCode, third.body).toBe(200);
    expect([await shownStock(a), await shownStock(b)]).toEqual([3, 2]);
    const rows = await openCheckoutsOf(me);
    expect(rows.filter((row) => row.status === "open")).toEqual([
      expect.objectContaining({ orderIds: [lineB], bulkOrderIds: [] }),
    ]);
    expect(rows.filter((row) => row.status === "replaced")).toHaveLength(2);
  });

  it("refuses another shopper's order, a line that isn't pending, a bulk order's line and an empty choice, naming the id", async () => {
    const me = await store.newShopper();
    const someoneElse = await store.newShopper();
    const product = await store.newProduct();
    const mine = await store.buyNow(me, product);
    const theirs = await store.buyNow(someoneElse, product);
    const { bulkId, lineIds } = await store.buyAll(me, [[await store.newProduct(), 1]]);
    const { bulkId: theirBulk } = await store.buyAll(someoneElse, [[await store.newProduct(), 1]]);
    const cart = await t.app.inject({
      method: "POST",
      url: "/api/order",
      headers: me,
      payload: { status: "inCart", productId: await store.newProduct(), amount: 1 },
    });
    const cartLine = cart.json<{ id: number }>().id;

    for (const [selection, field, words] of [
      [{ orderIds: [mine, theirs] }, "orderIds", `order ${theirs} is not a pending order of yours`],
      [{ orderIds: [cartLine] }, "orderIds", `order ${cartLine} is not a pending order of yours`],
      [{ orderIds: [2_000_000_000] }, "orderIds", "order 2000000000 is not a pending order of yours"],
      [{ orderIds: [lineIds[0]!] }, "orderIds", `order ${lineIds[0]} is part of bulk order ${bulkId}`],
      [{ bulkOrderIds: [theirBulk] }, "bulkOrderIds", `bulk order ${theirBulk} is not a pending bulk order`],
      [{ orderIds: [], bulkOrderIds: [] }, "orderIds", "choose at least one"],
    ] as const) {
      const reply = await pay(me, selection);
      expect(reply.statusCode, JSON.stringify(selection)).toBe(400);
      expect(reply.json()).toMatchObject({ details: [{ field, reason: expect.stringContaining(words) }] });
    }
    // Nothing was started, and nothing is held.
    expect(await openCheckoutsOf(me)).toEqual([]);
    expect(await shownStock(product)).toBe(10);

    const bad = await pay(me, { orderIds: ["x" as unknown as number] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      details: [expect.objectContaining({ field: expect.stringContaining("orderIds") })],
    });
  });

  it("refuses a paid order chosen again", async () => {
    const me = await store.newShopper();
    const line = await store.buyNow(me, await store.newProduct());
    const other = await store.buyNow(me, await store.newProduct());
    const started = await pay(me, { orderIds: [line] });
    await t.app.inject({
      url: `/api/sandbox/feedback${(await store.payWithCard(started.json<{ init_point: string }>().init_point)).search}`,
      headers: me,
    });
    expect(await store.orderOf(line)).toMatchObject({ status: "finished" });
    const again = await pay(me, { orderIds: [line, other] });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toContain(`order ${line} is not a pending order of yours`);
    // The refusal changed nothing: the other line alone goes through.
    expect((await pay(me, { orderIds: [other] })).statusCode).toBe(200);
  });
});

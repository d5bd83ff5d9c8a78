import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { bulkOrders, orders, products } from "../../db/schema";

/**
 * Taking a line back from checkout (ADR 0015): PUT /order/:id {status: "inCart"} on a
 * pending line turns it into a cart line again.
 */
let t: TestContext;
let store: Shop;
const BASE = "http://localhost:3000";

const backToCart = (headers: Headers, id: number) =>
  t.app.inject({ method: "PUT", url: `/api/order/${id}`, headers, payload: { status: "inCart" } });

const addToCart = async (headers: Headers, productId: number, amount: number) => {
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/order",
    headers,
    payload: { status: "inCart", productId, amount },
  });
  expect(reply.statusCode, reply.body).toBe(201);
  return reply.json<{ id: number }>().id;
};

const cartOf = async (headers: Headers) =>
  (await t.app.inject({ url: "/api/order?status=inCart", headers }))
    .json<
      { id: number; orders: { id: number; amount: number; status: string; bulkOrderId: number | null }[] }[]
    >()
    .flatMap((product) => product.orders.map((line) => ({ productId: product.id, ...line })));

const shownStock = async (productId: number) =>
  (await t.app.inject({ url: `/api/products/${productId}` })).json<{ stock: number }>().stock;

beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
});
afterAll(() => t.close());

describe("PUT /order/:id {status: inCart} on a pending line", () => {
  it("turns a Buy now into a cart line priced today, with no purchase left of it", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct({ priceCents: 2500, shippingCostCents: 400 });
    const line = await store.buyNow(me, productId, 2);
    const reply = await backToCart(me, line);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toEqual({
      msg: "Order moved to the cart",
      removed: false,
      order: {
        id: line,
        status: "inCart",
        amount: 2,
        productId,
        variantId: await store.variantOf(productId),
      },
    });
    expect(await store.orderOf(line)).toMatchObject({
      status: "inCart",
      unitPriceCents: null,
      lineTotalCents: null,
      serverPurchaseDate: null,
      bulkOrderId: null,
    });
    expect(await cartOf(me)).toEqual([expect.objectContaining({ id: line, amount: 2, bulkOrderId: null })]);
    // Nothing is left to pay.
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/sandbox/pay",
          headers: me,
          payload: { baseURL: BASE },
        })
      ).statusCode,
    ).toBe(404);
  });

  it("merges into the cart line of the same product, capped at the stock", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct({ stock: 5 });
    const cartLine = await addToCart(me, productId, 3);
    const line = await store.buyNow(me, productId, 4);
    const reply = await backToCart(me, line);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toMatchObject({
      msg: "Order moved to the cart: only 5 left",
      order: { id: cartLine, amount: 5, status: "inCart" },
    });
    expect(await cartOf(me)).toEqual([expect.objectContaining({ id: cartLine, amount: 5 })]);
    expect(await t.database.db.select().from(orders).where(eq(orders.id, line))).toEqual([]);
  });

  it("takes a line out of a bulk order, which keeps the others and their sums; the last line ends it", async () => {
    const me = await store.newShopper();
    const a = await store.newProduct({ priceCents: 1000, shippingCostCents: 200 });
    const b = await store.newProduct({ priceCents: 3000, shippingCostCents: 500 });
    const { bulkId, lineIds } = await store.buyAll(me, [
      [a, 2],
      [b, 1],
    ]);
    expect((await backToCart(me, lineIds[0]!)).statusCode).toBe(200);
    const [bulk] = await t.database.db.select().from(bulkOrders).where(eq(bulkOrders.id, bulkId));
    expect(bulk).toMatchObject({
      status: "pending",
      combinedPriceCents: 3000,
      combinedShippingCostCents: 500,
    });
    expect(await store.orderOf(lineIds[1]!)).toMatchObject({ status: "pending", bulkOrderId: bulkId });

    expect((await backToCart(me, lineIds[1]!)).statusCode).toBe(200);
    expect(await t.database.db.select().from(bulkOrders).where(eq(bulkOrders.id, bulkId))).toEqual([]);
    expect((await cartOf(me)).map((line) => [line.productId, line.amount])).toEqual([
      [a, 2],
      [b, 1],
    ]);
  });

  it("releases the open checkout's units and the next Pay charges what is left", async () => {
    const me = await store.newShopper();
    const kept = await store.newProduct({ stock: 4, priceCents: 1000, shippingCostCents: 0 });
    const taken = await store.newProduct({ stock: 4, priceCents: 2000, shippingCostCents: 300 });
    const { lineIds } = await store.buyAll(me, [
      [kept, 1],
      [taken, 2],
    ]);
    const pay = () =>
      t.app.inject({ method: "POST", url: "/api/sandbox/pay", headers: me, payload: { baseURL: BASE } });
    const first = await pay();
    expect(first.statusCode, first.body).toBe(200);
    expect([await shownStock(kept), await shownStock(taken)]).toEqual([3, 2]);

    expect((await backToCart(me, lineIds[1]!)).statusCode).toBe(200);
    // The catalogue's replies follow the database's change notifications (ADR 0014): read until they did.
    await expect.poll(async () => [await shownStock(kept), await shownStock(taken)]).toEqual([4, 4]);

    // Paid anyway (the provider's page was still open): the bulk order's rest isn't what was charged, so the
    // money goes back and the rest stays to be paid.
    const returned = await store.payWithCard(first.json<{ init_point: string }>().init_point);
    const feedback = await t.app.inject({ url: `/api/sandbox/feedback${returned.search}`, headers: me });
    expect(feedback.json()).toMatchObject({ Status: "refund_needed" });
    expect(await store.orderOf(lineIds[0]!)).toMatchObject({ status: "pending" });
    expect(await store.stockOf(kept)).toBe(4);

    // Paying again makes another checkout, of what is left.
    const second = await pay();
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json<{ id: string }>().id).not.toBe(first.json<{ id: string }>().id);
    expect(await store.checkoutOf(second.json<{ id: string }>().id)).toMatchObject({
      amountCents: 1000,
      status: "open",
    });
  });

  it("refuses someone else's line, a line already paid, and a cart line; leaves wishlist → cart as it was", async () => {
    const me = await store.newShopper();
    const someoneElse = await store.newShopper();
    const productId = await store.newProduct();
    const theirs = await store.buyNow(someoneElse, productId);
    expect((await backToCart(me, theirs)).statusCode).toBe(404);
    expect(await store.orderOf(theirs)).toMatchObject({ status: "pending" });

    const cartLine = await addToCart(me, productId, 1);
    const again = await backToCart(me, cartLine);
    expect(again.statusCode).toBe(400);

    const paid = await store.buyNow(me, await store.newProduct());
    await t.database.db.update(orders).set({ status: "finished" }).where(eq(orders.id, paid));
    const refused = await backToCart(me, paid);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ details: [{ field: "status" }] });
    expect(await store.orderOf(paid)).toMatchObject({ status: "finished" });
  });

  it("brings a sold-out product back as one unit, for the shopper to remove", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct({ stock: 2 });
    const line = await store.buyNow(me, productId, 2);
    await t.database.db.update(products).set({ stock: 0 }).where(eq(products.id, productId));
    const reply = await backToCart(me, line);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toMatchObject({ msg: "Order moved to the cart: only 0 left", order: { amount: 1 } });
  });
});

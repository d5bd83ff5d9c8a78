import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop } from "../../../test/shop";
import { orders, products } from "../../db/schema";

let t: TestContext;
let serial = 0;

async function newShopper(): Promise<Record<string, string>> {
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/user",
    payload: {
      firstName: "Order",
      lastName: "Test",
      email: `orders-${++serial}@voltio.test`,
      password: "long-enough-1",
    },
  });
  expect(reply.statusCode, reply.body).toBe(201);
  return t.bearer(reply.json<{ id: number }>().id);
}

async function newProduct(values: { priceCents?: number; stock?: number; shippingCostCents?: number } = {}) {
  const [row] = await t.database.db
    .insert(products)
    .values({ title: `Order test ${++serial}`, name: "thing", priceCents: 1000, stock: 5, ...values })
    .returning({ id: products.id });
  return row!.id;
}

const add = (headers: Record<string, string>, payload: Record<string, unknown>) =>
  t.app.inject({ method: "POST", url: "/api/order", headers, payload });
const put = (headers: Record<string, string>, id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: "PUT", url: `/api/order/${id}`, headers, payload });
const list = async (headers: Record<string, string>, status: string) => {
  const reply = await t.app.inject({ url: `/api/order?status=${status}`, headers });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<
    {
      id: number;
      price: number;
      orders: {
        id: number;
        amount: number;
        status: string;
        unitPrice: number;
        lineTotal: number;
        shipping: number;
        localPurchaseDate: string | null;
      }[];
    }[]
  >();
};

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("POST /order", () => {
  it("adds to the caller's line, ignores client prices and answers the line", async () => {
    const me = await newShopper();
    const productId = await newProduct({ priceCents: 2500, shippingCostCents: 300 });
    const first = await add(me, {
      status: "inCart",
      productId,
      amount: 2,
      price: 0.01,
      title: "Free",
      stock: 999,
    });
    expect(first.statusCode, first.body).toBe(201);
    const line = first.json<{ id: number }>();
    const variantId = await shop(t).variantOf(productId);
    expect(first.json()).toEqual({ id: line.id, status: "inCart", amount: 2, productId, variantId });
    const second = await add(me, { status: "inCart", productId: String(productId), amount: "1" });
    expect(second.json()).toEqual({ id: line.id, status: "inCart", amount: 3, productId, variantId });

    const [product] = await list(me, "inCart");
    expect(product).toMatchObject({ id: productId, price: 25 });
    expect(product!.orders).toEqual([
      expect.objectContaining({ id: line.id, amount: 3, unitPrice: 25, lineTotal: 75, shipping: 3 }),
    ]);
  });

  it("never lets a cart line go above the stock: 409 with the stock left", async () => {
    const me = await newShopper();
    const productId = await newProduct({ stock: 3 });
    expect((await add(me, { status: "inCart", productId, amount: 2 })).statusCode).toBe(201);
    const refused = await add(me, { status: "inCart", productId, amount: 2 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ stock: 3 });
  });

  it("refuses out-of-stock, retired and unknown products", async () => {
    const me = await newShopper();
    const empty = await newProduct({ stock: 0 });
    expect((await add(me, { status: "inWishList", productId: empty })).json()).toMatchObject({ stock: 0 });
    const retired = await newProduct();
    await t.database.db.update(products).set({ deletedAt: new Date() }).where(eq(products.id, retired));
    expect((await add(me, { status: "inCart", productId: retired })).statusCode).toBe(404);
    expect((await add(me, { status: "inCart", productId: 2_000_000_000 })).statusCode).toBe(404);
    expect((await add(me, { status: "pending", productId: empty })).statusCode).toBe(409);
    expect((await add(me, { status: "finished", productId: retired })).statusCode).toBe(400);
  });

  it("buys now: a pending line of its own, priced and snapshotted by the server, within the stock", async () => {
    const me = await newShopper();
    const productId = await newProduct({ priceCents: 1250, shippingCostCents: 300, stock: 3 });
    await add(me, { status: "inCart", productId, amount: 3 });
    const bought = await add(me, {
      status: "pending",
      productId,
      amount: 2,
      date: "Mon Nov 23 2026",
      price: 1,
    });
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json()).toMatchObject({ status: "pending", amount: 2, productId });
    const again = await add(me, { status: "pending", productId, amount: 1 });
    expect(again.statusCode).toBe(201);
    expect((await add(me, { status: "pending", productId, amount: 4 })).json()).toMatchObject({ stock: 3 });
    const [product] = await list(me, "pending");
    expect(product!.orders).toEqual([
      expect.objectContaining({
        amount: 2,
        unitPrice: 12.5,
        lineTotal: 25,
        shipping: 3,
        localPurchaseDate: "Mon Nov 23 2026",
      }),
      expect.objectContaining({ amount: 1, lineTotal: 12.5 }),
    ]);
    // The cart line is untouched: buying now is not buying the cart.
    expect((await list(me, "inCart"))[0]!.orders).toEqual([expect.objectContaining({ amount: 3 })]);
  });

  it("keeps one line of 20 when one shopper adds 20 times at once", async () => {
    const me = await newShopper();
    const productId = await newProduct({ stock: 50 });
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => add(me, { status: "inCart", productId, amount: 1 })),
    );
    expect(replies.map((reply) => reply.statusCode)).toEqual(Array(20).fill(201));
    const [product] = await list(me, "inCart");
    expect(product!.orders.map((line) => line.amount)).toEqual([20]);
  });

  it("refuses admins and guests", async () => {
    const productId = await newProduct();
    expect((await add(await t.bearer(1), { status: "inCart", productId })).statusCode).toBe(403);
    expect((await add({}, { status: "inCart", productId })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: "/api/order?status=inCart", headers: await t.bearer(1) })).statusCode,
    ).toBe(403);
  });
});

describe("PUT /order/:id", () => {
  it("changes a cart line by one, up to the stock, and removes it below 1", async () => {
    const me = await newShopper();
    const productId = await newProduct({ stock: 2 });
    const { id } = (await add(me, { status: "inCart", productId })).json<{ id: number }>();
    expect((await put(me, id, { amount: 1 })).json()).toMatchObject({ removed: false, order: { amount: 2 } });
    const over = await put(me, id, { amount: 1 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ stock: 2 });
    expect((await put(me, id, { amount: -1 })).json()).toMatchObject({ order: { amount: 1 } });
    expect((await put(me, id, { amount: -1 })).json()).toMatchObject({ removed: true, order: null });
    expect(await list(me, "inCart")).toEqual([]);
  });

  it("moves a wishlist line to the cart, merged into the cart line and capped at the stock", async () => {
    const me = await newShopper();
    const productId = await newProduct({ stock: 3 });
    const cart = (await add(me, { status: "inCart", productId, amount: 2 })).json<{ id: number }>();
    const wish = (await add(me, { status: "inWishList", productId })).json<{ id: number }>();
    const moved = await put(me, wish.id, { status: "inCart" });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ order: { id: cart.id, amount: 3, status: "inCart" } });
    expect(await list(me, "inWishList")).toEqual([]);

    const wishAgain = (await add(me, { status: "inWishList", productId })).json<{ id: number }>();
    expect((await put(me, wishAgain.id, { status: "inCart" })).json()).toMatchObject({
      order: { amount: 3 },
    });

    const other = await newProduct();
    const lone = (await add(me, { status: "inWishList", productId: other })).json<{ id: number }>();
    expect((await put(me, lone.id, { status: "inCart" })).json()).toMatchObject({
      order: { status: "inCart", amount: 1, productId: other },
    });
  });

  it("snapshots the price when a cart line becomes pending; later price changes don't touch it", async () => {
    const me = await newShopper();
    const productId = await newProduct({ priceCents: 1999, shippingCostCents: 500, stock: 10 });
    const { id } = (await add(me, { status: "inCart", productId, amount: 2 })).json<{ id: number }>();
    const pending = await put(me, id, { status: "pending", date: "2026-11-23 10:00" });
    expect(pending.statusCode, pending.body).toBe(200);
    await t.database.db
      .update(products)
      .set({ priceCents: 9999, shippingCostCents: 0 })
      .where(eq(products.id, productId));
    const [product] = await list(me, "pending");
    expect(product!.price).toBe(99.99);
    expect(product!.orders).toEqual([
      expect.objectContaining({
        id,
        status: "pending",
        unitPrice: 19.99,
        lineTotal: 39.98,
        shipping: 5,
        localPurchaseDate: "2026-11-23 10:00",
      }),
    ]);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    expect(row).toMatchObject({ unitPriceCents: 1999, lineTotalCents: 3998, shippingCostCents: 500 });
  });

  it("refuses other transitions and other users' lines, never with a 500", async () => {
    const me = await newShopper();
    const someoneElse = await newShopper();
    const productId = await newProduct();
    const wish = (await add(me, { status: "inWishList", productId })).json<{ id: number }>();
    expect((await put(me, wish.id, { amount: 1 })).statusCode).toBe(400);
    expect((await put(me, wish.id, { status: "delivered" })).statusCode).toBe(403);
    const bought = (await add(me, { status: "pending", productId })).json<{ id: number }>();
    expect((await put(me, bought.id, { status: "pending" })).statusCode).toBe(400);
    expect((await put(me, bought.id, { amount: -1 })).statusCode).toBe(400);
    // Taken back from checkout it is a cart line again (ADR 0015; back-to-cart.test.ts).
    expect((await put(me, bought.id, { status: "inCart" })).statusCode).toBe(200);
    expect((await put(me, wish.id, { amount: 2 })).statusCode).toBe(400);
    expect((await put(someoneElse, wish.id, { status: "inCart" })).statusCode).toBe(404);
    expect((await put(me, 2_000_000_000, { amount: 1 })).statusCode).toBe(404);
    expect(await list(someoneElse, "inWishList,inCart")).toEqual([]);
    // An admin's PUT moves purchases (admin.test.ts): a list line is no purchase.
    expect((await put(await t.bearer(1), wish.id, { status: "inCart" })).statusCode).toBe(409);
  });

  it("buys one unit of a wishlist line ('Buy' on its card)", async () => {
    const me = await newShopper();
    const productId = await newProduct({ priceCents: 800, stock: 1 });
    const wish = (await add(me, { status: "inWishList", productId })).json<{ id: number }>();
    const bought = await put(me, wish.id, { status: "pending", date: "today" });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json()).toMatchObject({ order: { id: wish.id, status: "pending", amount: 1 } });
    expect(await list(me, "inWishList")).toEqual([]);
    expect((await list(me, "pending"))[0]!.orders).toEqual([
      expect.objectContaining({ lineTotal: 8, localPurchaseDate: "today" }),
    ]);
  });
});

describe("POST /order/merge", () => {
  const merge = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: "/api/order/merge", headers, payload });
  const key = () => crypto.randomUUID();

  it("adds the guest's cart amounts capped at the stock and joins the wishlist without repeats", async () => {
    const me = await newShopper();
    const few = await newProduct({ stock: 4 });
    const plenty = await newProduct({ stock: 50 });
    const wished = await newProduct();
    const gone = await newProduct();
    const empty = await newProduct({ stock: 0 });
    await t.database.db.update(products).set({ deletedAt: new Date() }).where(eq(products.id, gone));
    await add(me, { status: "inCart", productId: few, amount: 3 });
    await add(me, { status: "inWishList", productId: wished });

    const reply = await merge(me, {
      key: key(),
      inCart: [
        { productId: few, amount: 2 },
        { productId: plenty, amount: 2 },
        { productId: plenty, amount: "1", price: 0 },
        { productId: gone, amount: 1 },
      ],
      inWishList: [{ productId: wished }, { productId: plenty }, { productId: empty }],
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toMatchObject({
      repeated: false,
      refused: [
        { status: "inCart", productId: gone, error: "Product Not Found" },
        { status: "inWishList", productId: empty, error: "Out of stock" },
      ],
    });
    const lists = await list(me, "inCart,inWishList");
    const amounts = Object.fromEntries(
      lists.flatMap((product) => product.orders.map((line) => [`${line.status}:${product.id}`, line.amount])),
    );
    expect(amounts).toEqual({
      [`inCart:${few}`]: 4,
      [`inCart:${plenty}`]: 3,
      [`inWishList:${wished}`]: 1,
      [`inWishList:${plenty}`]: 1,
    });
  });

  it("applies a merge sent twice once (its reply was lost), and a new merge again", async () => {
    const me = await newShopper();
    const productId = await newProduct({ stock: 10 });
    const same = { key: key(), inCart: [{ productId, amount: 2 }] };
    expect((await merge(me, same)).json()).toMatchObject({ repeated: false });
    expect((await merge(me, same)).json()).toMatchObject({ repeated: true, lines: [] });
    expect((await list(me, "inCart"))[0]!.orders[0]!.amount).toBe(2);
    // Another shopper's merge with the same key is theirs: keys are per shopper.
    const someoneElse = await newShopper();
    expect((await merge(someoneElse, same)).json()).toMatchObject({ repeated: false });
    expect((await merge(me, { ...same, key: key() })).json()).toMatchObject({ repeated: false });
    expect((await list(me, "inCart"))[0]!.orders[0]!.amount).toBe(4);
  });

  it("changes nothing when any line is invalid, and refuses guests and admins", async () => {
    const me = await newShopper();
    const productId = await newProduct();
    const bad = await merge(me, {
      key: key(),
      inCart: [
        { productId, amount: 1 },
        { productId, amount: 0 },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ details: [{ field: "inCart.1.amount" }] });
    expect((await merge(me, { key: "not-a-uuid" })).json()).toMatchObject({ details: [{ field: "key" }] });
    expect(await list(me, "inCart")).toEqual([]);
    expect((await merge({}, { key: key() })).statusCode).toBe(401);
    expect((await merge(await t.bearer(1), { key: key() })).statusCode).toBe(403);
  });

  it("keeps each product's cart line whole when the same merge races itself and an add", async () => {
    const me = await newShopper();
    const productId = await newProduct({ stock: 100 });
    const same = { key: key(), inCart: [{ productId, amount: 5 }] };
    const replies = await Promise.all([
      merge(me, same),
      merge(me, same),
      add(me, { status: "inCart", productId, amount: 1 }),
      merge(me, { key: key(), inCart: [{ productId, amount: 7 }] }),
    ]);
    expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200, 201, 200]);
    expect(replies.filter((reply) => reply.json().repeated === true)).toHaveLength(1);
    expect((await list(me, "inCart"))[0]!.orders.map((line) => line.amount)).toEqual([13]);
  });
});

describe("DELETE /order/:id", () => {
  it("removes the caller's own lines only", async () => {
    const me = await newShopper();
    const someoneElse = await newShopper();
    const productId = await newProduct();
    const { id } = (await add(me, { status: "inWishList", productId })).json<{ id: number }>();
    const remove = (headers: Record<string, string>) =>
      t.app.inject({ method: "DELETE", url: `/api/order/${id}`, headers });
    expect((await remove(someoneElse)).statusCode).toBe(404);
    expect((await remove(await t.bearer(1))).statusCode).toBe(403);
    expect((await remove(me)).statusCode).toBe(200);
    expect((await remove(me)).statusCode).toBe(404);
    expect(await list(me, "inWishList")).toEqual([]);
  });
});

describe("POST /order/bulk", () => {
  const bulk = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: "/api/order/bulk", headers, payload });

  it("moves the caller's cart lines to pending as one purchase with combined prices", async () => {
    const me = await newShopper();
    const a = await newProduct({ priceCents: 1000, shippingCostCents: 200 });
    const b = await newProduct({ priceCents: 250, shippingCostCents: 700 });
    const lineA = (await add(me, { status: "inCart", productId: a, amount: 2 })).json<{ id: number }>();
    const lineB = (await add(me, { status: "inCart", productId: b })).json<{ id: number }>();
    const reply = await bulk(me, { orderIds: [lineA.id, lineB.id], date: "23/11/2026", price: 0 });
    expect(reply.statusCode, reply.body).toBe(201);
    const created = reply.json<{ id: number; products: { id: number; orders: { status: string }[] }[] }>();
    expect(created).toMatchObject({ status: "pending", combinedPrice: 22.5, combinedShippingCost: 9 });
    expect(created.products.map((product) => product.id)).toEqual([a, b]);
    expect(created.products.flatMap((product) => product.orders.map((line) => line.status))).toEqual([
      "pending",
      "pending",
    ]);
    expect(await list(me, "inCart")).toEqual([]);
    await t.database.db.update(products).set({ priceCents: 1 }).where(eq(products.id, a));
    const listed = await t.app.inject({ url: "/api/order/bulk?status=pending", headers: me });
    expect(listed.json()).toEqual([expect.objectContaining({ id: created.id, combinedPrice: 22.5 })]);
    expect(listed.json()[0].products[0].orders[0]).toMatchObject({ unitPrice: 10, lineTotal: 20 });
    // Gathered lines belong to the bulk order: they can't be deleted on their own.
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/order/${lineA.id}`, headers: me })).statusCode,
    ).toBe(404);
  });

  it("refuses the whole call for another user's line, a non-cart line or too little stock", async () => {
    const me = await newShopper();
    const someoneElse = await newShopper();
    const productId = await newProduct({ stock: 3 });
    const mine = (await add(me, { status: "inCart", productId })).json<{ id: number }>();
    const wish = (await add(me, { status: "inWishList", productId })).json<{ id: number }>();
    const theirs = (await add(someoneElse, { status: "inCart", productId })).json<{ id: number }>();
    expect((await bulk(me, { orderIds: [mine.id, theirs.id] })).statusCode).toBe(404);
    expect((await bulk(me, { orderIds: [mine.id, wish.id] })).statusCode).toBe(400);
    expect((await bulk(me, { orderIds: [mine.id, mine.id] })).statusCode).toBe(400);
    expect((await bulk(await t.bearer(1), { orderIds: [mine.id] })).statusCode).toBe(403);
    await t.database.db.update(products).set({ stock: 0 }).where(eq(products.id, productId));
    const out = await bulk(me, { orderIds: [mine.id] });
    expect(out.statusCode).toBe(409);
    expect(out.json()).toMatchObject({ stock: 0 });
    const [product] = await list(me, "inCart");
    expect(product!.orders.map((line) => line.id)).toEqual([mine.id]);
    expect((await t.app.inject({ url: "/api/order/bulk", headers: me })).json()).toEqual([]);
  });

  it("makes one purchase of the cart when 'Buy All' is sent twice at once", async () => {
    const me = await newShopper();
    const a = await newProduct();
    const b = await newProduct();
    const ids = [
      (await add(me, { status: "inCart", productId: a })).json<{ id: number }>().id,
      (await add(me, { status: "inCart", productId: b })).json<{ id: number }>().id,
    ];
    const replies = await Promise.all([bulk(me, { orderIds: ids }), bulk(me, { orderIds: ids })]);
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([201, 400]);
    expect((await t.app.inject({ url: "/api/order/bulk", headers: me })).json()).toHaveLength(1);
  });
});

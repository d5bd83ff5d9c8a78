import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { mailOutbox, productVariants, products } from "../../db/schema";

/**
 * Everything that sells a product sells a variant (issue 41, ADR 0023): lines, prices, stock, holds,
 * settlement, names in replies and e-mails and buy again, per variant (back-in-stock requests:
 * stock-alerts/routes.test.ts); a SPEC client
 * that knows only product ids gets the product's default variant.
 */
let t: TestContext;
let store: Shop;
let me: Headers;
let mouse: { productId: number; variantIds: number[]; title: string };

const add = (headers: Headers, payload: Record<string, unknown>) =>
  t.app.inject({ method: "POST", url: "/api/order", headers, payload });

interface Listed {
  id: number;
  stock: number;
  price: number;
  orders: { id: number; variantId: number; variant: { name: string; sku: string }; unitPrice: number }[];
}
const listed = async (headers: Headers, status: string) => {
  const reply = await t.app.inject({ url: `/api/order?status=${status}`, headers });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<Listed[]>();
};

beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
});
afterAll(() => t.close());

beforeEach(async () => {
  me = await store.newShopper();
  const made = await store.newProductWithVariants(
    [{ name: "Colour", values: ["Black", "White"] }],
    [
      { options: { Colour: "Black" }, priceCents: 4999, stock: 2 },
      { options: { Colour: "White" }, priceCents: 5499, stock: 1 },
    ],
  );
  const [row] = await t.database.db
    .select({ title: products.title })
    .from(products)
    .where(eq(products.id, made.productId));
  mouse = { ...made, title: row!.title };
});

describe("a product sold in variants", () => {
  it("is listed at its lowest price with the sum of its variants' stock", async () => {
    const reply = await t.app.inject({ url: `/api/products/${mouse.productId}` });
    expect(reply.statusCode, reply.body).toBe(200);
    const product = reply.json<{ price: number; stock: number; options: unknown; variants: unknown[] }>();
    expect(product).toMatchObject({ price: 49.99, stock: 3 });
    expect(product.options).toEqual([{ name: "Colour", values: ["Black", "White"] }]);
    expect(product.variants).toEqual([
      expect.objectContaining({
        id: mouse.variantIds[0],
        options: { Colour: "Black" },
        price: 49.99,
        stock: 2,
      }),
      expect.objectContaining({
        id: mouse.variantIds[1],
        options: { Colour: "White" },
        price: 54.99,
        stock: 1,
      }),
    ]);
  });

  it("puts each variant on a line of its own, priced and named as the variant", async () => {
    const [black, white] = mouse.variantIds as [number, number];
    expect(
      (await add(me, { status: "inCart", productId: mouse.productId, variantId: black })).statusCode,
    ).toBe(201);
    const added = await add(me, { status: "inCart", productId: mouse.productId, variantId: String(white) });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ productId: mouse.productId, variantId: white, amount: 1 });
    // The same variant again joins its line; White has one unit.
    const again = await add(me, { status: "inCart", productId: mouse.productId, variantId: white });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: "Only 1 left" });

    const [product] = await listed(me, "inCart");
    expect(product!.orders).toEqual([
      expect.objectContaining({
        variantId: black,
        variant: expect.objectContaining({ name: `${mouse.title} — Black`, options: { Colour: "Black" } }),
        unitPrice: 49.99,
      }),
      expect.objectContaining({
        variantId: white,
        variant: expect.objectContaining({ name: `${mouse.title} — White` }),
        unitPrice: 54.99,
      }),
    ]);
  });

  it("gives a client that names no variant the product's default: the first with stock", async () => {
    const [black, white] = mouse.variantIds as [number, number];
    const first = await add(me, { status: "inCart", productId: mouse.productId });
    expect(first.json()).toMatchObject({ variantId: black });
    await t.database.db.update(productVariants).set({ stock: 0 }).where(eq(productVariants.id, black));
    const other = await store.newShopper();
    const second = await add(other, { status: "inWishList", productId: mouse.productId });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toMatchObject({ variantId: white });
  });

  it("refuses a variant of another product, and a retired one", async () => {
    const other = await store.newProduct();
    const foreign = await add(me, { status: "inCart", productId: other, variantId: mouse.variantIds[0] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ details: [{ field: "variantId", reason: expect.any(String) }] });

    await t.database.db
      .update(productVariants)
      .set({ retiredAt: new Date() })
      .where(eq(productVariants.id, mouse.variantIds[1]!));
    const retired = await add(me, {
      status: "inCart",
      productId: mouse.productId,
      variantId: mouse.variantIds[1],
    });
    expect(retired.statusCode).toBe(404);
    // Retiring a variant takes its units out of the product's.
    expect(await store.stockOf(mouse.productId)).toBe(2);
  });

  it("takes a paid variant's units off its own shelf, names it in the e-mail and buys it again", async () => {
    const [black, white] = mouse.variantIds as [number, number];
    const bought = await add(me, { status: "pending", productId: mouse.productId, variantId: white });
    expect(bought.statusCode, bought.body).toBe(201);
    const paid = await store.payPending(me);
    expect(await store.variantStockOf(white)).toBe(0);
    expect(await store.variantStockOf(black)).toBe(2);
    expect(await store.stockOf(mouse.productId)).toBe(2);

    const mails = await t.database.db.select().from(mailOutbox);
    expect(mails.some((mail) => mail.textBody.includes(`${mouse.title} — White × 1`))).toBe(true);

    const purchase = await t.app.inject({ url: `/api/order/purchases/${paid.number}`, headers: me });
    expect(purchase.statusCode, purchase.body).toBe(200);
    expect(purchase.json<{ lines: unknown[] }>().lines).toEqual([
      expect.objectContaining({ variantId: white, title: `${mouse.title} — White` }),
    ]);

    // White is sold out: buying again adds nothing of it and says so.
    const again = await t.app.inject({
      method: "POST",
      url: `/api/order/purchases/${paid.number}/buy-again`,
      headers: me,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ added: [], missing: [{ productId: mouse.productId, added: 0 }] });
  });

  it("lets N buyers of a variant's last units pay for no more than there are, the other variant untouched", async () => {
    const [black, white] = mouse.variantIds as [number, number];
    const buyers = await Promise.all(Array.from({ length: 6 }, () => store.newShopper()));
    const replies = await Promise.all(
      buyers.map((buyer) => add(buyer, { status: "pending", productId: mouse.productId, variantId: black })),
    );
    expect(replies.every((reply) => reply.statusCode === 201)).toBe(true);
    const pays = await Promise.all(
      buyers.map((buyer) =>
        t.app.inject({
          method: "POST",
          url: "/api/sandbox/pay",
          headers: buyer,
          payload: { baseURL: "http://localhost:3000" },
        }),
      ),
    );
    // Black has two units: two checkouts hold one each, the rest are told before paying.
    expect(pays.filter((reply) => reply.statusCode === 200)).toHaveLength(2);
    expect(pays.filter((reply) => reply.statusCode === 409)).toHaveLength(4);
    for (const reply of pays.filter((pay) => pay.statusCode === 409))
      expect(reply.json()).toMatchObject({ productId: mouse.productId, variantId: black, stock: 0 });
    for (const [index, reply] of pays.entries()) {
      if (reply.statusCode !== 200) continue;
      const returned = await store.payWithCard(reply.json<{ init_point: string }>().init_point);
      const settled = await t.app.inject({
        url: `/api/sandbox/feedback${returned.search}`,
        headers: buyers[index]!,
      });
      expect(settled.json()).toMatchObject({ Status: "approved" });
    }
    expect(await store.variantStockOf(black)).toBe(0);
    expect(await store.variantStockOf(white)).toBe(1);
    expect(await store.stockOf(mouse.productId)).toBe(1);
  });
});

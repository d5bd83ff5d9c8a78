import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { bulkOrders, checkouts, mailOutbox, orders, sandboxCharges } from "../../db/schema";

/**
 * The money path with the built-in sandbox provider: pay → the sandbox's card page →
 * the return page's feedback. The card page is driven as a browser posts its form.
 */
let t: TestContext;
let store: Shop;
const BASE = "http://localhost:3000";

const pay = (headers: Headers, payload: Record<string, unknown> = { baseURL: BASE }) =>
  t.app.inject({ method: "POST", url: "/api/sandbox/pay", headers, payload });

/** The shopper on the sandbox's card page: the form as a browser sends it. */
async function payWithCard(initPoint: string, number: string, expiry = "12/40", cvc = "123") {
  return t.app.inject({
    method: "POST",
    url: new URL(initPoint).pathname,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ number, expiry, cvc }).toString(),
  });
}

/** Pays everything pending with a card and answers the return page's redirect. */
async function checkout(headers: Headers, card = "4242 4242 4242 4242") {
  const started = await pay(headers);
  expect(started.statusCode, started.body).toBe(200);
  const carded = await payWithCard(started.json<{ init_point: string }>().init_point, card);
  expect(carded.statusCode, carded.body).toBe(303);
  return new URL(carded.headers.location as string);
}

const feedback = (headers: Headers, returned: URL) =>
  t.app.inject({ url: `/api/sandbox/feedback${returned.search}`, headers });

beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
});
afterAll(() => t.close());

describe("paying with the sandbox", () => {
  it("takes a sold-out product out of the search as soon as its payment is approved", async () => {
    const admin = await t.bearer(1);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/products",
      headers: admin,
      payload: {
        title: "Zanzibarite lamp",
        name: "Zanzibarite",
        price: 30,
        shippingCost: 0,
        description: "The last one. ",
        stock: 1,
        images: ["https://img.example/lamp.png"],
        categories: ["Lamps"],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const found = async () =>
      (await t.app.inject({ url: "/api/products?search=zanzibarite" })).json<{ total: number }>().total;
    expect(await found()).toBe(1);

    const me = await store.newShopper();
    await store.buyNow(me, created.json<{ id: number }>().id, 1);
    const paid = await feedback(me, await checkout(me));
    expect(paid.json<{ Status: string }>().Status).toBe("approved");
    expect(await found()).toBe(0);
  });

  it("charges the server's totals for every pending line and bulk order, then finishes them once", async () => {
    const me = await store.newShopper();
    const a = await store.newProduct({ priceCents: 1000, shippingCostCents: 200 });
    const b = await store.newProduct({ priceCents: 250, shippingCostCents: 700 });
    const c = await store.newProduct({ priceCents: 4000, shippingCostCents: 0, stock: 3 });
    const { bulkId, lineIds: cartIds } = await store.buyAll(me, [
      [a, 2],
      [b, 1],
    ]);
    const single = await store.buyNow(me, c, 2);

    // The client's prices are ignored: 22.50 + 80 of products, 9 of shipping.
    const started = await pay(me, { baseURL: `${BASE}/`, items: [{ title: "x", amount: 1, price: 0.01 }] });
    expect(started.statusCode, started.body).toBe(200);
    const { id, init_point } = started.json<{ id: string; init_point: string }>();
    expect(init_point).toBe(`${BASE}/pay/sandbox/${id}`);
    const [charge] = await t.database.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, id));
    expect(charge).toMatchObject({ amountCents: 11150, successUrl: `${BASE}/purchase/success` });
    // Paying again for the same pending orders reuses the open checkout.
    expect((await pay(me)).json()).toEqual({ id, init_point });

    const page = await t.app.inject({ url: new URL(init_point).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("US$ 111.50");
    const carded = await payWithCard(init_point, "4242 4242 4242 4242");
    expect(carded.statusCode).toBe(303);
    const returned = new URL(carded.headers.location as string);
    expect(returned.pathname).toBe("/purchase/success");

    const replies = await Promise.all(Array.from({ length: 10 }, () => feedback(me, returned)));
    for (const reply of replies)
      expect(reply.json()).toMatchObject({
        Status: "approved",
        Payment: returned.searchParams.get("payment_id"),
        order: { products: 102.5, shipping: 9, total: 111.5, address: { city: "Rosario" } },
      });
    expect([await store.stockOf(a), await store.stockOf(b), await store.stockOf(c)]).toEqual([8, 9, 1]);
    const rows = await t.database.db
      .select({
        status: orders.status,
        purchaseId: orders.purchaseId,
        shippingAddress: orders.shippingAddress,
      })
      .from(orders)
      .where(inArray(orders.id, [...cartIds, single]));
    expect(rows).toHaveLength(3);
    for (const row of rows)
      expect(row).toMatchObject({
        status: "finished",
        purchaseId: returned.searchParams.get("payment_id"),
        shippingAddress: { city: "Rosario", streetNumber: 1234 },
      });
    const [bulkRow] = await t.database.db
      .select({ status: bulkOrders.status })
      .from(bulkOrders)
      .where(eq(bulkOrders.id, bulkId));
    expect(bulkRow!.status).toBe("finished");
    expect((await pay(me)).statusCode).toBe(404);

    // One confirmation, queued with the settlement, however many times the payment was reported.
    const [checkoutRow] = await t.database.db
      .select({ id: checkouts.id })
      .from(checkouts)
      .where(eq(checkouts.providerCheckoutId, id));
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `order-confirmation:checkout:${checkoutRow!.id}`));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain("confirmed");
    expect(mails[0]!.textBody).toContain("Total: US$ 111.50");
    expect(mails[0]!.textBody).toContain("Ship to: Córdoba 1234, 2000 Rosario");
  });

  it("charges an 'on Nth unit' discount as a line of its own, with no shipping", async () => {
    const me = await store.newShopper();
    const MOUSE = 11; // Logitech M510, 29.99: every third mouse free in the demo store's sales.
    await store.buyNow(me, MOUSE, 3);
    const reply = await feedback(me, await checkout(me));
    const { order } = reply.json<{ order: { items: unknown[]; products: number; total: number } }>();
    expect(order.items).toEqual([
      { title: expect.any(String), amount: 2, unitPrice: 29.99, discountPercentage: null },
      { title: expect.any(String), amount: 1, unitPrice: 0, discountPercentage: 100 },
    ]);
    expect(order.products).toBe(59.98);
  });

  it("finishes nothing for a declined or pending card, whatever the return URL says", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct();
    const line = await store.buyNow(me, productId);
    const declined = await checkout(me, "4000 0000 0000 0002");
    expect(declined.pathname).toBe("/purchase/failure");
    declined.searchParams.set("status", "approved");
    expect((await feedback(me, declined)).json()).toEqual({
      Status: "rejected",
      Payment: declined.searchParams.get("payment_id"),
      reason: "Your card was declined.",
    });

    // The declined charge's card page asks for another card.
    const { init_point } = (await pay(me)).json<{ init_point: string }>();
    expect((await t.app.inject({ url: new URL(init_point).pathname })).statusCode).toBe(200);
    const pending = await checkout(me, "4000000000009995");
    expect((await feedback(me, pending)).json()).toMatchObject({ Status: "pending" });
    const forged = new URL(`${BASE}/purchase/success?payment_id=sbx_pay_forged&status=approved`);
    expect((await feedback(me, forged)).statusCode).toBe(404);

    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, line));
    expect(row!.status).toBe("pending");
    expect(await store.stockOf(productId)).toBe(10);
    // Still payable: the declined charge's checkout is reused and a good card finishes it.
    expect((await feedback(me, await checkout(me))).json()).toMatchObject({ Status: "approved" });
  });

  it("keeps each shopper to their own payments", async () => {
    const me = await store.newShopper();
    const someoneElse = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const returned = await checkout(me);
    expect((await feedback(someoneElse, returned)).statusCode).toBe(404);
    expect((await pay(someoneElse)).statusCode).toBe(404);
    expect((await feedback(me, returned)).json()).toMatchObject({ Status: "approved" });
  });

  it("refuses a foreign return address, a shopper without an address, guests and admins", async () => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const foreign = await pay(me, { baseURL: "https://evil.example" });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ details: [{ field: "baseURL" }] });
    const homeless = await store.newShopper({ address: false });
    await store.buyNow(homeless, await store.newProduct());
    const noAddress = await pay(homeless);
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json().error).toContain("You need to have an address to make the purchase!");
    expect((await pay(me, { baseURL: BASE, directionId: 2_000_000_000 })).statusCode).toBe(404);
    expect((await pay({})).statusCode).toBe(401);
    expect((await pay(await t.bearer(1))).statusCode).toBe(403);
  });

  it("refunds a payment that isn't its checkout's total, and leaves the order payable", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct();
    const line = await store.buyNow(me, productId);
    const { id, init_point } = (await pay(me)).json<{ id: string; init_point: string }>();
    // The provider's books say another amount was paid (a tampered or partial payment).
    await t.database.db.update(sandboxCharges).set({ amountCents: 1 }).where(eq(sandboxCharges.id, id));
    const carded = await payWithCard(init_point, "4242424242424242");
    const reply = await feedback(me, new URL(carded.headers.location as string));
    expect(reply.json()).toMatchObject({ Status: "amount_mismatch" });
    expect(await store.orderOf(line)).toMatchObject({ status: "pending", flag: null });
    expect(await store.stockOf(productId)).toBe(10);
    expect(await t.app.paymentsWorker.runOnce()).toMatchObject({ refunds: 1 });
    const [charge] = await t.database.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, id));
    expect(charge!.refundedCents).toBe(1);
    // Its order can be paid again, in full, with a new checkout.
    const again = await feedback(me, await checkout(me));
    expect(again.json()).toMatchObject({ Status: "approved" });
    expect(await store.orderOf(line)).toMatchObject({ status: "finished", flag: null });
  });

  it("holds the last 5 units for 5 of 50 buyers who all pay at once and tells the 45 others before paying", async () => {
    const productId = await store.newProduct({ stock: 5 });
    const buyers = await Promise.all(Array.from({ length: 50 }, () => store.newShopper()));
    for (const buyer of buyers) await store.buyNow(buyer, productId);
    const started = await Promise.all(buyers.map((buyer) => pay(buyer)));
    const held = started.filter((reply) => reply.statusCode === 200);
    const refused = started.filter((reply) => reply.statusCode === 409);
    expect(held).toHaveLength(5);
    expect(refused).toHaveLength(45);
    for (const reply of refused)
      expect(reply.json()).toMatchObject({ error: "Out of stock", productId, stock: 0 });
    // What others see is the stock less the holds.
    const shown = await t.app.inject({ url: `/api/products/${productId}` });
    expect(shown.json<{ stock: number }>().stock).toBe(0);

    const replies = await Promise.all(
      buyers.map(async (buyer, index) => {
        if (started[index]!.statusCode !== 200) return undefined;
        const carded = await payWithCard(
          started[index]!.json<{ init_point: string }>().init_point,
          "4242424242424242",
        );
        return feedback(buyer, new URL(carded.headers.location as string));
      }),
    );
    const outcomes = replies.flatMap((reply) => (reply ? [reply.json<{ Status: string }>().Status] : []));
    expect(outcomes).toEqual(Array(5).fill("approved"));
    expect(await store.stockOf(productId)).toBe(0);
    const lines = await t.database.db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.productId, productId));
    expect(lines.filter((line) => line.status === "finished")).toHaveLength(5);
    expect(lines.filter((line) => line.status === "pending")).toHaveLength(45);
    const paid = await t.database.db
      .selectDistinct({ id: checkouts.id })
      .from(checkouts)
      .innerJoin(orders, eq(orders.checkoutId, checkouts.id))
      .where(and(eq(checkouts.status, "paid"), eq(orders.productId, productId)));
    expect(paid).toHaveLength(5);
    const told = await t.database.db.select({ key: mailOutbox.dedupeKey }).from(mailOutbox);
    for (const { id } of paid)
      expect(told.map((mail) => mail.key)).toContain(`order-confirmation:checkout:${id}`);
    // 50 registrations and checkouts: a bound for a hang on a busy CI, not a speed check.
  }, 120_000);
});

describe("the sandbox card page", () => {
  it("asks again for a card it doesn't know, a past expiry or a bad CVC, and takes a payment once", async () => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const { init_point } = (await pay(me)).json<{ init_point: string }>();
    for (const [number, expiry, cvc, message] of [
      ["4111 1111 1111 1111", "12/40", "123", "Use one of the sandbox test cards."],
      ["4242 4242 4242 4242", "01/20", "123", "Enter a future expiry date as MM/YY."],
      ["4242 4242 4242 4242", "12/40", "12", "Enter the 3 or 4 digits of the CVC."],
    ] as const) {
      const reply = await payWithCard(init_point, number, expiry, cvc);
      expect(reply.statusCode).toBe(400);
      expect(reply.body).toContain(message);
    }
    const first = await payWithCard(init_point, "4242424242424242");
    expect(first.statusCode).toBe(303);
    // A second submit (a double click, the back button) leads to the same order: one payment, never a bare page.
    const second = await payWithCard(init_point, "4242424242424242");
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    const back = await t.app.inject({ url: new URL(init_point).pathname });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(first.headers.location);
    expect((await t.app.inject({ url: "/pay/sandbox/sbx_ch_unknown" })).statusCode).toBe(404);
    const spanish = await t.app.inject({
      url: "/pay/sandbox/sbx_ch_unknown",
      headers: { "accept-language": "es-AR,es;q=0.9" },
    });
    expect(spanish.body).toContain("No existe ese pago.");
  });
});

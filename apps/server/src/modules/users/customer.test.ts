import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerSchema, type Customer } from "@voltio/domain/customer";
import { orderNumber } from "@voltio/domain/order-status";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { bulkOrders, orders, payments, products } from "../../db/schema";

/**
 * GET /api/user/admin/:id/customer: the back office's customer page. Real purchases paid
 * through the sandbox, one of them refunded in part by the owner, and the numbers add up.
 */
let t: TestContext;
let store: Shop;
let admin: Headers;

beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
  admin = await t.bearer(1);
});
afterAll(() => t.close());

const customer = (id: number, headers: Headers = admin) =>
  t.app.inject({ url: `/api/user/admin/${id}/customer`, headers });

async function read(id: number): Promise<Customer> {
  const reply = await customer(id);
  expect(reply.statusCode, reply.body).toBe(200);
  return customerSchema.parse(reply.json());
}

describe("GET /api/user/admin/:id/customer", () => {
  it("is the admins' alone; an unknown or malformed id is refused", async () => {
    const me = await store.newShopper();
    const id = await store.userIdOf(me);
    expect((await customer(id, {})).statusCode).toBe(401);
    expect((await customer(id, me)).statusCode).toBe(403);
    const unknown = await customer(2_000_000_000);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: "User Not Found" });
    const malformed = await customer(0);
    expect(malformed.statusCode).toBe(400);
    expect(JSON.stringify(malformed.json())).toContain("id");
  });

  it("shows a new shopper's profile and address, with nothing bought", async () => {
    const me = await store.newShopper();
    const id = await store.userIdOf(me);
    const seen = await read(id);
    expect(seen.profile).toMatchObject({
      id,
      firstName: "Pay",
      lastName: "Test",
      rol: "user",
      googleUser: false,
      newsletterSubscription: false,
      deletedAt: null,
    });
    expect(Date.parse(seen.profile.createdAt)).not.toBeNaN();
    expect(seen.addresses).toEqual([
      expect.objectContaining({ city: "Rosario", street: "Córdoba", streetNumber: 1234, postalCode: "2000" }),
    ]);
    expect(seen).toMatchObject({
      purchases: [],
      purchaseCount: 0,
      lifetimeSpend: 0,
      reviews: [],
      reviewCount: 0,
    });
  });

  it("lists each paid checkout once with its total and statuses; the lifetime spend leaves out a refund", async () => {
    const me = await store.newShopper();
    const id = await store.userIdOf(me);
    const lamp = await store.newProduct({ priceCents: 2500, shippingCostCents: 300, stock: 10 });
    const desk = await store.newProduct({ priceCents: 10000, shippingCostCents: 0, stock: 10 });
    const chair = await store.newProduct({ priceCents: 4000, shippingCostCents: 500, stock: 10 });

    // A 'Buy now' of two lamps, paid.
    await store.buyNow(me, lamp, 2);
    const first = (await store.payPending(me)).checkoutId;
    // 'Buy All' of a desk and a chair, paid.
    await store.buyAll(me, [
      [desk, 1],
      [chair, 1],
    ]);
    const second = (await store.payPending(me)).checkoutId;
    // Something left pending (not paid) is not a purchase yet.
    await store.buyNow(me, lamp, 1);

    const charged = async (checkoutId: number) => {
      const [payment] = await t.database.db
        .select()
        .from(payments)
        .where(eq(payments.checkoutId, checkoutId));
      return payment!;
    };
    const firstPayment = await charged(first);
    const secondPayment = await charged(second);

    let seen = await read(id);
    expect(seen.purchaseCount).toBe(2);
    expect(seen.purchases.map((purchase) => purchase.number)).toEqual([
      orderNumber(second),
      orderNumber(first),
    ]);
    expect(seen.purchases[0]).toMatchObject({
      total: secondPayment.amountCents / 100,
      refunded: 0,
      units: 2,
      statuses: ["finished"],
      flags: [],
    });
    expect(seen.purchases[1]).toMatchObject({
      total: firstPayment.amountCents / 100,
      units: 2,
      statuses: ["finished"],
    });
    expect(seen.lifetimeSpend).toBe((firstPayment.amountCents + secondPayment.amountCents) / 100);

    // The owner gives back $10 of the first purchase: it shows, and the spend is that much less.
    const refund = await t.app.inject({
      method: "POST",
      url: `/api/payment/admin/${firstPayment.id}/refund`,
      headers: admin,
      payload: { amount: "10.00", reason: "Scratched lamp" },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    seen = await read(id);
    expect(seen.purchases[1]).toMatchObject({ number: orderNumber(first), refunded: 10 });
    const kept = firstPayment.amountCents + secondPayment.amountCents - 1000;
    expect(seen.lifetimeSpend).toBe(kept / 100);
    // Once the provider took it, the same.
    await t.app.paymentsWorker.runOnce();
    expect((await read(id)).lifetimeSpend).toBe(kept / 100);

    // The rest of the second purchase refunded: it is cancelled and counts for nothing.
    const rest = await t.app.inject({
      method: "POST",
      url: `/api/payment/admin/${secondPayment.id}/refund`,
      headers: admin,
      payload: { reason: "Returned" },
    });
    expect(rest.statusCode, rest.body).toBe(200);
    await t.app.paymentsWorker.runOnce();
    seen = await read(id);
    expect(seen.purchaseCount).toBe(2);
    expect(seen.purchases[0]).toMatchObject({
      number: orderNumber(second),
      total: secondPayment.amountCents / 100,
      refunded: secondPayment.amountCents / 100,
      statuses: ["cancelled"],
      flags: ["refunded"],
    });
    expect(seen.lifetimeSpend).toBe((firstPayment.amountCents - 1000) / 100);

    // An admin moves one line of the first purchase on: both statuses show, in the order a purchase moves.
    const [line] = await t.database.db.select().from(orders).where(eq(orders.checkoutId, first));
    const moved = await t.app.inject({
      method: "PUT",
      url: `/api/order/${line!.id}`,
      headers: admin,
      payload: { status: "onDelivery" },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await read(id)).purchases[1]!.statuses).toEqual(["onDelivery"]);
  });

  it("counts purchases recorded without a payment at their products and shipping, each on its own", async () => {
    const me = await store.newShopper();
    const id = await store.userIdOf(me);
    const product = await store.newProduct({ priceCents: 1500 });
    const old = new Date("2025-03-01T10:00:00Z");
    const [bulk] = await t.database.db
      .insert(bulkOrders)
      .values({
        userId: id,
        status: "delivered",
        combinedPriceCents: 3000,
        combinedShippingCostCents: 200,
        serverPurchaseDate: old,
      })
      .returning({ id: bulkOrders.id });
    const line = { userId: id, productId: product, unitPriceCents: 1500, lineTotalCents: 1500 };
    await t.database.db.insert(orders).values([
      { ...line, status: "delivered", amount: 1, bulkOrderId: bulk!.id, serverPurchaseDate: old },
      { ...line, status: "delivered", amount: 1, bulkOrderId: bulk!.id, serverPurchaseDate: old },
      // A single purchase, then cancelled: listed, worth nothing.
      { ...line, status: "cancelled", amount: 1, shippingCostCents: 100, serverPurchaseDate: new Date() },
      // Wishlist, cart and pending lines are not purchases.
      { ...line, status: "inCart", amount: 1 },
      { ...line, status: "pending", amount: 1 },
    ]);

    const seen = await read(id);
    expect(seen.purchaseCount).toBe(2);
    expect(seen.purchases).toEqual([
      expect.objectContaining({ number: null, total: 16, units: 1, statuses: ["cancelled"] }),
      expect.objectContaining({
        number: null,
        date: old.toISOString(),
        total: 32,
        units: 2,
        statuses: ["delivered"],
      }),
    ]);
    expect(seen.lifetimeSpend).toBe(32);
  });

  it("lists the customer's reviews with their products, newest first", async () => {
    const me = await store.newShopper();
    const id = await store.userIdOf(me);
    const first = await store.newProduct({ priceCents: 1000 });
    const second = await store.newProduct({ priceCents: 2000 });
    await store.buyAll(me, [
      [first, 1],
      [second, 1],
    ]);
    await store.payPending(me);
    for (const [productId, rating, content] of [
      [first, 4, "Bright enough"],
      [second, 2, "Wobbly"],
    ] as const) {
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/comment",
        headers: me,
        payload: { productId, rating, content },
      });
      expect(reply.statusCode, reply.body).toBe(201);
    }
    const [title] = await t.database.db
      .select({ title: products.title })
      .from(products)
      .where(eq(products.id, second));
    const seen = await read(id);
    expect(seen.reviewCount).toBe(2);
    expect(seen.reviews.map((review) => review.content)).toEqual(["Wobbly", "Bright enough"]);
    expect(seen.reviews[0]).toMatchObject({ productId: second, productTitle: title!.title, rating: 2 });
  });

  it("still shows an erased account, with its purchases", async () => {
    const me = await store.newShopper();
    const id = await store.userIdOf(me);
    await store.buyNow(me, await store.newProduct({ priceCents: 1200 }), 1);
    await store.payPending(me);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: "/api/user/admin",
      headers: admin,
      payload: { id },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const seen = await read(id);
    expect(seen.profile.deletedAt).not.toBeNull();
    expect(seen.purchaseCount).toBe(1);
  });
});

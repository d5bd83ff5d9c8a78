import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { checkouts, mailOutbox, orders, products } from "../src/db/schema";
import type { TestContext } from "./app";

export type Headers = Record<string, string>;

/** A shopper buying in the test app, as the web app does it, and what the database then holds. */
export function shop(t: TestContext) {
  let serial = 0;

  return {
    /** A newly registered shopper (with an address unless told otherwise): their bearer header. */
    async newShopper({ address = true } = {}): Promise<Headers> {
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/user",
        payload: {
          firstName: "Pay",
          lastName: "Test",
          email: `shop-${++serial}-${Date.now()}@voltio.test`,
          password: "long-enough-1",
        },
      });
      expect(reply.statusCode, reply.body).toBe(201);
      const headers = await t.bearer(reply.json<{ id: number }>().id);
      if (address) {
        const direction = await t.app.inject({
          method: "POST",
          url: "/api/user/direction",
          headers,
          payload: { city: "Rosario", street: "Córdoba", streetNumber: 1234, postalCode: "2000" },
        });
        expect(direction.statusCode, direction.body).toBe(201);
      }
      return headers;
    },

    async newProduct(values: { priceCents?: number; stock?: number; shippingCostCents?: number } = {}) {
      const [row] = await t.database.db
        .insert(products)
        .values({ title: `Shop test ${++serial}`, name: "thing", priceCents: 1000, stock: 10, ...values })
        .returning({ id: products.id });
      return row!.id;
    },

    /** 'Buy All' of cart lines ([productId, amount]): the bulk order's id and its lines' ids. */
    async buyAll(headers: Headers, lines: (readonly [number, number])[]) {
      const lineIds: number[] = [];
      for (const [productId, amount] of lines) {
        const added = await t.app.inject({
          method: "POST",
          url: "/api/order",
          headers,
          payload: { status: "inCart", productId, amount },
        });
        expect(added.statusCode, added.body).toBe(201);
        lineIds.push(added.json<{ id: number }>().id);
      }
      const bulk = await t.app.inject({
        method: "POST",
        url: "/api/order/bulk",
        headers,
        payload: { orderIds: lineIds },
      });
      expect(bulk.statusCode, bulk.body).toBe(201);
      return { bulkId: bulk.json<{ id: number }>().id, lineIds };
    },

    /** 'Buy now': a pending line of `amount` units; its order id. */
    async buyNow(headers: Headers, productId: number, amount = 1) {
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/order",
        headers,
        payload: { status: "pending", productId, amount },
      });
      expect(reply.statusCode, reply.body).toBe(201);
      return reply.json<{ id: number }>().id;
    },

    async stockOf(productId: number) {
      const [row] = await t.database.db
        .select({ stock: products.stock })
        .from(products)
        .where(eq(products.id, productId));
      return row!.stock;
    },

    async orderOf(orderId: number) {
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
      return row!;
    },

    /** The checkout a provider's checkout id (preference, session) was made for. */
    async checkoutOf(providerCheckoutId: string) {
      const [row] = await t.database.db
        .select()
        .from(checkouts)
        .where(eq(checkouts.providerCheckoutId, providerCheckoutId));
      return row!;
    },

    /** The order confirmations queued for a checkout. */
    confirmationsOf(checkoutId: number) {
      return t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.dedupeKey, `order-confirmation:checkout:${checkoutId}`));
    },
  };
}

export type Shop = ReturnType<typeof shop>;

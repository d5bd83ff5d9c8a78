import { and, asc, eq, isNull } from "drizzle-orm";
import { expect } from "vitest";
import { orderNumber } from "@voltio/domain/order-status";
import { checkouts, mailOutbox, orders, productVariants, products, sandboxCharges } from "../src/db/schema";
import { newId } from "../src/integrations/payments/sandbox";
import { returnUrl } from "../src/integrations/payments/sandbox-page";
import type { ProviderPayment } from "../src/integrations/payments/provider";
import type { TestContext } from "./app";

export type Headers = Record<string, string>;

/** The store's address the test shopper pays from (the checkout's baseURL). */
export const SHOP_BASE_URL = "http://localhost:3000";

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

    /** The caller's user id. */
    async userIdOf(headers: Headers): Promise<number> {
      const reply = await t.app.inject({ url: "/api/user", headers });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<{ id: number }>().id;
    },

    /** The sandbox's card page, paid with an approving card: the return address it sends the shopper to. */
    async payWithCard(initPoint: string): Promise<URL> {
      const carded = await t.app.inject({
        method: "POST",
        url: new URL(initPoint).pathname,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ number: "4242424242424242", expiry: "12/40", cvc: "123" }).toString(),
      });
      expect(carded.statusCode, carded.body).toBe(303);
      return new URL(carded.headers.location as string);
    },

    /**
     * A payment the provider takes whatever the store said (a hosted page the store can't stop in time, as
     * Stripe's or Mercado Pago's): approved in the sandbox's books as its card page writes them, without the
     * page's word with the store. The return address the page would send the shopper to.
     */
    async approvedAnyway(initPoint: string): Promise<URL> {
      const chargeId = new URL(initPoint).pathname.split("/").pop()!;
      const paymentId = newId("sbx_pay");
      const [charge] = await t.database.db
        .update(sandboxCharges)
        .set({ status: "approved", paymentId, declineReason: null })
        .where(eq(sandboxCharges.id, chargeId))
        .returning();
      return new URL(returnUrl(charge!, "approved", paymentId));
    },

    /**
     * The provider's answer for a checkout's approved payment as a foreign-currency one reads: the sandbox only
     * speaks dollars, so a test settles this itself.
     */
    paidInPesos(paymentId: string, checkout: { id: number; amountCents: number }): ProviderPayment {
      return {
        id: paymentId,
        status: "approved",
        amountCents: checkout.amountCents,
        reference: String(checkout.id),
        currency: "ars",
        refundedCents: 0,
        disputed: false,
        raw: {},
      };
    },

    /**
     * Pays everything the shopper has pending through the sandbox with an approving card and reads the
     * return page, which must answer `outcome`: the payment's id, the checkout's id and the purchase's number.
     */
    async payPending(
      headers: Headers,
      {
        beforePaying = async () => {},
        outcome = "approved",
      }: { beforePaying?: () => Promise<unknown>; outcome?: string } = {},
    ) {
      const started = await t.app.inject({
        method: "POST",
        url: "/api/sandbox/pay",
        headers,
        payload: { baseURL: SHOP_BASE_URL },
      });
      expect(started.statusCode, started.body).toBe(200);
      const { id, init_point } = started.json<{ id: string; init_point: string }>();
      await beforePaying();
      const returned = await this.payWithCard(init_point);
      const settled = await t.app.inject({ url: `/api/sandbox/feedback${returned.search}`, headers });
      expect(settled.json<{ Status: string }>().Status).toBe(outcome);
      const checkoutId = (await this.checkoutOf(id)).id;
      return {
        paymentId: returned.searchParams.get("payment_id")!,
        checkoutId,
        number: orderNumber(checkoutId),
      };
    },

    /** The product's first live variant: a product made by newProduct has one, its default (ADR 0023). */
    async variantOf(productId: number) {
      const [row] = await t.database.db
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(and(eq(productVariants.productId, productId), isNull(productVariants.retiredAt)))
        .orderBy(asc(productVariants.position), asc(productVariants.id));
      return row!.id;
    },

    /**
     * A product sold in variants ({Colour: "Black"}, ...), each with its price and stock; the product's own
     * default variant is retired, as the admin's variant grid does.
     */
    async newProductWithVariants(
      options: { name: string; values: string[] }[],
      variants: { options: Record<string, string>; priceCents: number; stock: number }[],
    ) {
      const db = t.database.db;
      const [row] = await db
        .insert(products)
        .values({ title: `Shop test ${++serial}`, name: "thing", priceCents: 1000, stock: 0, options })
        .returning({ id: products.id });
      const productId = row!.id;
      await db
        .update(productVariants)
        .set({ retiredAt: new Date() })
        .where(eq(productVariants.productId, productId));
      const made = await db
        .insert(productVariants)
        .values(
          variants.map((variant, position) => ({
            productId,
            sku: `T${productId}-${position}`,
            position,
            ...variant,
          })),
        )
        .returning({ id: productVariants.id });
      return { productId, variantIds: made.map((variant) => variant.id) };
    },

    async variantStockOf(variantId: number) {
      const [row] = await t.database.db
        .select({ stock: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.id, variantId));
      return row!.stock;
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

import { and, count, eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { SHIPPING_ITEM_TITLE } from "@voltio/domain/checkout";
import { checkouts, paymentEvents, payments } from "../src/db/schema";
import type { TestContext } from "./app";
import { shop, type Headers, type Shop } from "./shop";

/** The store's public address in these tests: https, so Mercado Pago is given a notification_url. */
export const STORE_URL = "https://shop.voltio.test";

export type Outcome = "approved" | "pending" | "rejected";

/** What the contract needs of a provider's fake, in the provider's own terms. */
export interface ProviderDriver {
  /** The header that carries a notification's signature. */
  signatureHeader: string;
  /** What the provider was asked to charge for its checkout `id`, in cents. */
  chargedItems(id: string): { title: string; quantity: number; unitPriceCents: number }[];
  /**
   * The shopper pays checkout `id` on the provider's page: the payment (as the driver names it) and the return
   * URL. `amountCents` makes the provider's books say another amount was paid.
   */
  pay(id: string, outcome: Outcome, options?: { amountCents?: number }): { payment: string; returnUrl: URL };
  /** The provider's books change: a pending payment is approved. */
  approve(payment: string): void;
  /** The provider's notification about a payment, signed with `secret` at `signedAt` (Unix seconds). */
  notification(payment: string, signing?: { secret?: string; signedAt?: number }): InjectOptions;
  /** A correctly signed notification about a payment the provider has no record of. */
  unknownPaymentNotification(): InjectOptions;
  /** Correctly signed notifications whose contents make no sense. */
  malformedNotifications(): InjectOptions[];
  /** The provider's API answers the next requests with a 500. */
  outage(requests: number): void;
  /** The owner gives back `amountCents` of a payment from the provider's own dashboard, not through the store. */
  refundAtProvider(payment: string, amountCents: number): void;
  /** The buyer's bank disputes a payment (a chargeback). */
  disputeAtProvider(payment: string): void;
  /**
   * The provider's signed notification that a payment was refunded or disputed (Stripe: charge.refunded,
   * charge.dispute.created; Mercado Pago: a payment notification, as for any change).
   */
  afterSaleNotification(payment: string, change: "refunded" | "disputed"): InjectOptions;
  /** The refunds the provider's books hold for a payment, in cents, oldest first. */
  refundsOf(payment: string): number[];
  /** Whether checkout `id` still takes a payment at the provider (not once closed or expired). */
  isOpen(id: string): boolean;
}

/**
 * The money path every provider adapter must keep (docs/product-rules.md §11; ADR 0008), run on the real app
 * against the provider's fake: the provider's books decide, never the browser; a notification is believed only
 * when signed, and only after asking the provider; repeats make one transition.
 */
export function describeProviderContract(
  name: "mercadopago" | "stripe",
  setup: () => { t: TestContext; driver: ProviderDriver },
) {
  let t: TestContext;
  let driver: ProviderDriver;
  let s: Shop;
  beforeAll(() => {
    ({ t, driver } = setup());
    s = shop(t);
  });

  /** POST /{provider}/pay for everything the shopper has pending, and the checkout it made. */
  async function startPaying(me: Headers) {
    const reply = await t.app.inject({
      method: "POST",
      url: `/api/${name}/pay`,
      headers: me,
      payload: { baseURL: STORE_URL },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const { id, init_point } = reply.json<{ id: string; init_point: string }>();
    return { id, initPoint: init_point, checkout: await s.checkoutOf(id) };
  }

  /** A shopper with one pending unit of a new product (stock 10), and the checkout paying it. */
  async function oneLineCheckout() {
    const me = await s.newShopper();
    const productId = await s.newProduct();
    const line = await s.buyNow(me, productId);
    return { me, productId, line, ...(await startPaying(me)) };
  }

  const feedback = (me: Headers, returned: URL) =>
    t.app.inject({ url: `/api/${name}/feedback${returned.search}`, headers: me });

  const notify = (request: InjectOptions) => t.app.inject(request);

  const paymentsOf = async (checkoutId: number) =>
    t.database.db.select().from(payments).where(eq(payments.checkoutId, checkoutId));

  const eventCount = async () =>
    (
      await t.database.db.select({ n: count() }).from(paymentEvents).where(eq(paymentEvents.provider, name))
    )[0]!.n;

  /** Nothing happened to a one-line checkout: its order waits, the stock is whole, no mail went out. */
  async function expectUntouched({ line, productId, checkout }: Awaited<ReturnType<typeof oneLineCheckout>>) {
    expect(await s.orderOf(line)).toMatchObject({ status: "pending", purchaseId: null });
    expect(await s.stockOf(productId)).toBe(10);
    expect(await s.confirmationsOf(checkout.id)).toHaveLength(0);
  }

  async function expectFinishedOnce({
    line,
    productId,
    checkout,
  }: Awaited<ReturnType<typeof oneLineCheckout>>) {
    expect(await s.orderOf(line)).toMatchObject({ status: "finished" });
    expect(await s.stockOf(productId)).toBe(9);
    expect(await s.confirmationsOf(checkout.id)).toHaveLength(1);
  }

  describe(`paying with ${name}`, () => {
    it("charges the server's total with the shipping as its own item, and finishes the orders once on approval", async () => {
      const me = await s.newShopper();
      const a = await s.newProduct({ priceCents: 1999, shippingCostCents: 250 });
      const b = await s.newProduct({ priceCents: 500, shippingCostCents: 700, stock: 3 });
      const lines = [await s.buyNow(me, a, 2), await s.buyNow(me, b, 3)];
      // The client's prices are never read.
      const { id, initPoint, checkout } = await startPaying(me);
      expect(new URL(initPoint).protocol).toMatch(/^https?:$/);

      expect(checkout.amountCents).toBe(2 * 1999 + 3 * 500 + 250 + 700);
      const items = driver.chargedItems(id);
      expect(items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0)).toBe(
        checkout.amountCents,
      );
      expect(items.at(-1)).toEqual({ title: SHIPPING_ITEM_TITLE, quantity: 1, unitPriceCents: 950 });

      const { payment, returnUrl } = driver.pay(id, "approved");
      const replies = await Promise.all([1, 2, 3].map(() => feedback(me, returnUrl)));
      const paymentId = replies[0]!.json<{ Payment: string }>().Payment;
      for (const reply of replies)
        expect(reply.json()).toMatchObject({ Status: "approved", Payment: paymentId });
      // The notification arriving after the return page changes nothing more.
      expect((await notify(driver.notification(payment))).json()).toEqual({ received: true });

      for (const line of lines)
        expect(await s.orderOf(line)).toMatchObject({ status: "finished", purchaseId: paymentId });
      expect([await s.stockOf(a), await s.stockOf(b)]).toEqual([8, 0]);
      const mails = await s.confirmationsOf(checkout.id);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.textBody).toContain("Total: US$ 64.48");
      expect(await paymentsOf(checkout.id)).toMatchObject([
        { providerPaymentId: paymentId, status: "approved" },
      ]);
    });

    it("finishes nothing while the payment is pending, then finishes it on the provider's notification", async () => {
      const bought = await oneLineCheckout();
      const { payment, returnUrl } = driver.pay(bought.id, "pending");
      expect((await feedback(bought.me, returnUrl)).json()).toMatchObject({ Status: "pending" });
      expect((await notify(driver.notification(payment))).json()).toEqual({ received: true });
      await expectUntouched(bought);

      driver.approve(payment);
      expect((await notify(driver.notification(payment))).json()).toEqual({ received: true });
      await expectFinishedOnce(bought);
      expect((await feedback(bought.me, returnUrl)).json()).toMatchObject({ Status: "approved" });
    });

    it("finishes nothing for a rejected payment, whatever the return URL claims", async () => {
      const bought = await oneLineCheckout();
      const { payment, returnUrl } = driver.pay(bought.id, "rejected");
      for (const claim of ["status", "collection_status", "payment_status"])
        returnUrl.searchParams.set(claim, claim === "payment_status" ? "paid" : "approved");
      const reply = await feedback(bought.me, returnUrl);
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toMatchObject({ Status: "rejected", reason: expect.any(String) });
      expect((await notify(driver.notification(payment))).statusCode).toBe(200);
      await expectUntouched(bought);
    });

    it("finishes the order on a valid notification, and on the same one ten times at once only once", async () => {
      const bought = await oneLineCheckout();
      const { payment } = driver.pay(bought.id, "approved");
      const events = await eventCount();
      const notification = driver.notification(payment);
      const replies = await Promise.all(Array.from({ length: 10 }, () => notify(notification)));
      for (const reply of replies) {
        expect(reply.statusCode, reply.body).toBe(200);
        expect(reply.json()).toEqual({ received: true });
      }
      await expectFinishedOnce(bought);
      expect(await paymentsOf(bought.checkout.id)).toHaveLength(1);
      expect(await eventCount()).toBe(events + 1);
      const [checkout] = await t.database.db
        .select({ status: checkouts.status })
        .from(checkouts)
        .where(eq(checkouts.id, bought.checkout.id));
      expect(checkout!.status).toBe("paid");
    });

    it("refuses a forged, a missing or a stale signature with 401, changing nothing", async () => {
      const bought = await oneLineCheckout();
      const { payment } = driver.pay(bought.id, "approved");
      const genuine = driver.notification(payment);
      const { [driver.signatureHeader]: _signature, ...unsigned } = genuine.headers as Record<string, string>;
      const refused = [
        driver.notification(payment, { secret: "not-the-webhook-secret" }),
        { ...genuine, headers: unsigned },
        { ...genuine, headers: { ...unsigned, [driver.signatureHeader]: "t=1,v1=00,ts=1" } },
        driver.notification(payment, { signedAt: Math.floor(Date.now() / 1000) - 3600 }),
      ];
      for (const request of refused) {
        const reply = await notify(request);
        expect(reply.statusCode, reply.body).toBe(401);
        expect(reply.json()).toEqual({ error: expect.any(String) });
      }
      await expectUntouched(bought);
      expect(await paymentsOf(bought.checkout.id)).toHaveLength(0);
      // The genuine one still goes through.
      expect((await notify(genuine)).statusCode).toBe(200);
      await expectFinishedOnce(bought);
    });

    it("refunds a payment that isn't its total through the provider, and leaves the order payable", async () => {
      const bought = await oneLineCheckout();
      const { payment } = driver.pay(bought.id, "approved", { amountCents: bought.checkout.amountCents - 1 });
      expect((await notify(driver.notification(payment))).statusCode).toBe(200);
      expect(await s.orderOf(bought.line)).toMatchObject({ status: "pending", flag: null });
      expect(await s.stockOf(bought.productId)).toBe(10);
      expect(await s.confirmationsOf(bought.checkout.id)).toHaveLength(0);
      await t.app.paymentsWorker.runOnce();
      expect(driver.refundsOf(payment)).toEqual([bought.checkout.amountCents - 1]);
      // The worker again, or the same notification again: still one refund.
      expect((await notify(driver.notification(payment))).statusCode).toBe(200);
      await t.app.paymentsWorker.runOnce();
      expect(driver.refundsOf(payment)).toHaveLength(1);
    });

    it("closes a checkout at the provider once a newer one replaces it", async () => {
      const bought = await oneLineCheckout();
      expect(driver.isOpen(bought.id)).toBe(true);
      await s.buyNow(bought.me, await s.newProduct());
      const next = await startPaying(bought.me);
      expect(next.id).not.toBe(bought.id);
      expect(driver.isOpen(bought.id)).toBe(false);
      expect(driver.isOpen(next.id)).toBe(true);
    });

    it("refunds through the provider when the owner asks, and flags refunds and disputes the provider reports", async () => {
      const bought = await oneLineCheckout();
      const { payment } = driver.pay(bought.id, "approved");
      expect((await notify(driver.notification(payment))).statusCode).toBe(200);
      await expectFinishedOnce(bought);
      const [row] = await paymentsOf(bought.checkout.id);
      const refunded = await t.app.inject({
        method: "POST",
        url: `/api/payment/admin/${row!.id}/refund`,
        headers: await t.bearer(1),
        payload: { amount: "1.00", reason: "Late delivery" },
      });
      expect(refunded.statusCode, refunded.body).toBe(200);
      await t.app.paymentsWorker.runOnce();
      expect(driver.refundsOf(payment)).toEqual([100]);
      expect((await paymentsOf(bought.checkout.id))[0]!.refundedCents).toBe(100);

      // The owner refunds the rest from the provider's dashboard; the provider tells the store.
      driver.refundAtProvider(payment, bought.checkout.amountCents - 100);
      expect((await notify(driver.afterSaleNotification(payment, "refunded"))).statusCode).toBe(200);
      expect((await paymentsOf(bought.checkout.id))[0]!.refundedCents).toBe(bought.checkout.amountCents);
      expect(await s.orderOf(bought.line)).toMatchObject({ flag: "refunded" });

      const disputed = await oneLineCheckout();
      const second = driver.pay(disputed.id, "approved").payment;
      expect((await notify(driver.notification(second))).statusCode).toBe(200);
      driver.disputeAtProvider(second);
      expect((await notify(driver.afterSaleNotification(second, "disputed"))).statusCode).toBe(200);
      expect(await s.orderOf(disputed.line)).toMatchObject({ status: "finished", flag: "disputed" });
      expect((await paymentsOf(disputed.checkout.id))[0]!.disputed).toBe(true);
    });

    it("learns of a refund and a chargeback made at the provider from its notifications, asking it for the figures", async () => {
      const me = await s.newShopper();
      await s.buyNow(me, await s.newProduct({ priceCents: 2000 }));
      const started = await t.app.inject({
        method: "POST",
        url: `/api/${name}/pay`,
        headers: me,
        payload: { baseURL: STORE_URL },
      });
      const { payment, returnUrl } = driver.pay(started.json<{ id: string }>().id, "approved");
      const paid = await t.app.inject({ url: `/api/${name}/feedback${returnUrl.search}`, headers: me });
      expect(paid.json()).toMatchObject({ Status: "approved" });
      const books = async () =>
        (
          await t.database.db
            .select()
            .from(payments)
            .where(
              and(
                eq(payments.provider, name),
                eq(payments.providerPaymentId, paid.json<{ Payment: string }>().Payment),
              ),
            )
        )[0]!;
      expect(await books()).toMatchObject({
        status: "approved",
        currency: "usd",
        refundedCents: 0,
        disputed: false,
      });

      driver.refundAtProvider(payment, 500);
      expect((await t.app.inject(driver.afterSaleNotification(payment, "refunded"))).json()).toEqual({
        received: true,
      });
      expect(await books()).toMatchObject({ status: "approved", refundedCents: 500, disputed: false });
      expect(driver.refundsOf(payment)).toEqual([500]);

      driver.disputeAtProvider(payment);
      expect((await t.app.inject(driver.afterSaleNotification(payment, "disputed"))).json()).toEqual({
        received: true,
      });
      expect(await books()).toMatchObject({ status: "approved", refundedCents: 500, disputed: true });
    });

    it("answers malformed notifications with a 4xx, never a 5xx, changing nothing", async () => {
      const bought = await oneLineCheckout();
      driver.pay(bought.id, "approved");
      const url = `/api/${name}/webhook`;
      const json = { "content-type": "application/json" };
      const requests: InjectOptions[] = [
        { method: "POST", url },
        { method: "POST", url, headers: json, payload: "" },
        { method: "POST", url, headers: json, payload: "{not json" },
        { method: "POST", url, headers: json, payload: "[]" },
        { method: "POST", url, headers: { "content-type": "text/plain" }, payload: "hello" },
        { method: "POST", url, headers: json, payload: JSON.stringify({ padding: "x".repeat(70_000) }) },
        ...driver.malformedNotifications(),
      ];
      for (const request of requests) {
        const reply = await notify(request);
        expect(
          reply.statusCode,
          `${request.payload?.toString().slice(0, 60)}: ${reply.body}`,
        ).toBeGreaterThanOrEqual(400);
        expect(reply.statusCode, reply.body).toBeLessThan(500);
        expect(reply.json()).toMatchObject({ error: expect.any(String) });
      }
      await expectUntouched(bought);
    });

    it("acknowledges a notification about a payment the provider doesn't know, changing nothing", async () => {
      const events = await eventCount();
      const reply = await notify(driver.unknownPaymentNotification());
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toEqual({ received: true, ignored: true });
      expect(await eventCount()).toBe(events);
    });

    it("answers 502 while the provider is down, and pays once it is back", async () => {
      const me = await s.newShopper();
      await s.buyNow(me, await s.newProduct());
      driver.outage(3);
      const down = await t.app.inject({
        method: "POST",
        url: `/api/${name}/pay`,
        headers: me,
        payload: { baseURL: STORE_URL },
      });
      expect(down.statusCode, down.body).toBe(502);
      expect(down.json()).toEqual({ error: expect.stringContaining("try again") });
      await startPaying(me);
    });
  });
}

import { orderNumber } from "@voltio/domain/order-status";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import {
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
  startFakeStripe,
  type FakeStripe,
  type SessionOutcome,
} from "../../../test/fakes/stripe";
import { STORE_URL, describeProviderContract, type ProviderDriver } from "../../../test/provider-contract";
import { shop, type Shop } from "../../../test/shop";
import { sessionExpiry } from "./stripe";

/**
 * PAYMENT_PROVIDER=stripe on the real app, with the official SDK talking to a fake of Stripe's API on this
 * machine: the shared money-path contract, then what only Stripe does.
 */
let t: TestContext;
let fake: FakeStripe;
let s: Shop;

beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createTestApp({
    env: {
      PUBLIC_URL: STORE_URL,
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    },
  });
  s = shop(t);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** A pending payment is a delayed one (a bank debit still processing); a rejected one is a debit that failed. */
const OUTCOME: Record<"approved" | "pending" | "rejected", SessionOutcome> = {
  approved: "paid",
  pending: "processing",
  rejected: "failed",
};

/** The contract's driver: the fake in the contract's terms (ProviderDriver). */
const driver: ProviderDriver = {
  signatureHeader: "stripe-signature",
  chargedItems: (id) =>
    (fake.asked(id).line_items as { quantity: string; price_data: Record<string, unknown> }[]).map(
      (item) => ({
        title: (item.price_data.product_data as { name: string }).name,
        quantity: Number(item.quantity),
        unitPriceCents: Number(item.price_data.unit_amount),
      }),
    ),
  pay(id, outcome, { amountCents } = {}) {
    fake.complete(id, OUTCOME[outcome], { amountTotal: amountCents });
    return { payment: id, returnUrl: fake.returnUrl(id) };
  },
  approve: (id) => fake.settle(id, "paid"),
  notification: (id, signing) =>
    fake.event("checkout.session.completed", id, { secret: signing?.secret, timestamp: signing?.signedAt }),
  unknownPaymentNotification: () => fake.event("checkout.session.completed", "cs_test_noSuchSession"),
  malformedNotifications: () => [
    fake.signed("{not json"),
    fake.signed("42"),
    fake.signed(JSON.stringify({ id: 5, type: "checkout.session.completed" })),
    fake.signed(
      JSON.stringify({ id: "evt_1", object: "event", type: "checkout.session.completed", data: {} }),
    ),
    fake.signed(
      JSON.stringify({
        id: "evt_2",
        object: "event",
        type: "checkout.session.completed",
        data: { object: { id: "../../v1/balance" } },
      }),
    ),
  ],
  outage: (requests) =>
    fake.failNext(requests, {
      status: 500,
      body: { error: { message: "An unknown error occurred", type: "api_error" } },
    }),
  refundAtProvider: (id, amountCents) => void fake.refundInDashboard(id, amountCents),
  disputeAtProvider: (id) => void fake.dispute(id),
  afterSaleNotification: (id, change) =>
    fake.event(change === "refunded" ? "charge.refunded" : "charge.dispute.created", id),
  refundsOf: (id) => fake.refundsOf(id).map((refund) => refund.amount),
  isOpen: (id) => fake.isOpen(id),
};

describeProviderContract("stripe", () => ({ t, driver }));

describe("Stripe specifics", () => {
  async function startPaying() {
    const me = await s.newShopper();
    const productId = await s.newProduct({ priceCents: 1250, shippingCostCents: 300 });
    const line = await s.buyNow(me, productId, 2);
    const reply = await t.app.inject({
      method: "POST",
      url: "/api/stripe/pay",
      headers: me,
      payload: { baseURL: STORE_URL },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    return { me, line, ...reply.json<{ id: string; init_point: string }>() };
  }

  const feedback = (me: Record<string, string>, id: string) =>
    t.app.inject({ url: `/api/stripe/feedback?session_id=${id}`, headers: me });

  const notify = (type: string, id: string) => t.app.inject(fake.event(type, id));

  it("makes a Checkout Session as Stripe's API documents it", async () => {
    const { id, init_point } = await startPaying();
    expect(init_point).toBe(fake.sessions.get(id)!.url);
    const request = fake.received.findLast((received) => received.path === "/v1/checkout/sessions")!;
    expect(request.headers.authorization).toBe(`Bearer ${STRIPE_SECRET_KEY}`);
    expect(request.headers["idempotency-key"]).toBeTruthy();
    expect(request.headers["stripe-version"]).toBeTruthy();
    const checkout = await s.checkoutOf(id);
    expect(fake.asked(id)).toEqual({
      mode: "payment",
      line_items: [
        {
          quantity: "2",
          price_data: {
            currency: "usd",
            unit_amount: "1250",
            product_data: { name: expect.stringMatching(/^Shop test/) },
          },
        },
        {
          quantity: "1",
          price_data: { currency: "usd", unit_amount: "300", product_data: { name: "shippingCost" } },
        },
      ],
      success_url: `${STORE_URL}/purchase/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${STORE_URL}/purchase/failure`,
      client_reference_id: orderNumber(checkout.id),
      metadata: { reference: orderNumber(checkout.id) },
      customer_email: expect.stringMatching(/@voltio\.test$/),
      payment_intent_data: { description: `Voltio order V-${String(checkout.id).padStart(6, "0")}` },
      expires_at: expect.stringMatching(/^\d{10}$/),
    });
    // The store's stock hold, brought into the window Stripe allows (stripe-adapter.test.ts), as of the request.
    const created = Number(fake.sessions.get(id)!.created);
    expect(
      Math.abs(Number(fake.asked(id).expires_at) - sessionExpiry(checkout.expiresAt, created * 1000)),
    ).toBeLessThanOrEqual(1);
  });

  it("finishes a delayed payment on async_payment_succeeded, and turns down a failed one with Stripe's reason", async () => {
    const paid = await startPaying();
    fake.complete(paid.id, "processing");
    expect((await notify("checkout.session.completed", paid.id)).statusCode).toBe(200);
    expect((await feedback(paid.me, paid.id)).json()).toMatchObject({ Status: "pending" });
    fake.settle(paid.id, "paid");
    expect((await notify("checkout.session.async_payment_succeeded", paid.id)).statusCode).toBe(200);
    expect(await s.orderOf(paid.line)).toMatchObject({ status: "finished" });

    const failed = await startPaying();
    fake.complete(failed.id, "processing");
    fake.settle(failed.id, "failed");
    expect((await notify("checkout.session.async_payment_failed", failed.id)).statusCode).toBe(200);
    expect((await feedback(failed.me, failed.id)).json()).toMatchObject({
      Status: "rejected",
      reason: "The customer's bank account could not be debited.",
    });
    expect(await s.orderOf(failed.line)).toMatchObject({ status: "pending" });
  });

  it("takes an expired session for a payment that won't come", async () => {
    const { me, id, line } = await startPaying();
    fake.expire(id);
    expect((await notify("checkout.session.expired", id)).statusCode).toBe(200);
    expect((await feedback(me, id)).json()).toMatchObject({ Status: "rejected" });
    expect(await s.orderOf(line)).toMatchObject({ status: "pending" });
  });

  it("acknowledges events of other types without asking Stripe", async () => {
    const before = fake.received.length;
    const reply = await t.app.inject(
      fake.signed(JSON.stringify({ id: "evt_3", object: "event", type: "payment_intent.created", data: {} })),
    );
    expect(reply.json()).toEqual({ received: true, ignored: true });
    expect(fake.received.length).toBe(before);
  });

  it("answers 404 for a return page without a session Stripe knows", async () => {
    const { me } = await startPaying();
    for (const id of ["", "cs_test_noSuchSession", "../v1/balance", "{CHECKOUT_SESSION_ID}"])
      expect((await feedback(me, encodeURIComponent(id))).statusCode).toBe(404);
  });
});

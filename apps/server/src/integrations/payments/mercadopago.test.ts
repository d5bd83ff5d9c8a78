import { orderNumber } from "@voltio/domain/order-status";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import {
  MERCADOPAGO_ACCESS_TOKEN,
  MERCADOPAGO_WEBHOOK_SECRET,
  startFakeMercadoPago,
  type FakeMercadoPago,
} from "../../../test/fakes/mercadopago";
import { STORE_URL, describeProviderContract, type ProviderDriver } from "../../../test/provider-contract";
import { shop, type Shop } from "../../../test/shop";
import { mercadoPagoDate } from "./mercadopago";

/**
 * PAYMENT_PROVIDER=mercadopago on the real app, against a fake of Mercado Pago's API on this machine: the
 * shared money-path contract, then what only Mercado Pago does.
 */
let t: TestContext;
let fake: FakeMercadoPago;
let s: Shop;

beforeAll(async () => {
  fake = await startFakeMercadoPago();
  t = await createTestApp({
    env: {
      PUBLIC_URL: STORE_URL,
      PAYMENT_PROVIDER: "mercadopago",
      MERCADOPAGO_ACCESS_TOKEN,
      MERCADOPAGO_WEBHOOK_SECRET,
      MERCADOPAGO_API_URL: fake.url,
    },
  });
  s = shop(t);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const STATUS = { approved: "approved", pending: "in_process", rejected: "rejected" } as const;

/** The contract's driver: the fake in the contract's terms (ProviderDriver). */
const driver: ProviderDriver = {
  signatureHeader: "x-signature",
  chargedItems: (id) =>
    fake.preferences.get(id)!.items.map((item) => ({
      title: item.title,
      quantity: item.quantity,
      unitPriceCents: Math.round(item.unit_price * 100),
    })),
  pay(id, outcome, { amountCents } = {}) {
    const payment = fake.pay(id, {
      status: STATUS[outcome],
      amount: amountCents === undefined ? undefined : amountCents / 100,
    });
    return { payment: String(payment.id), returnUrl: fake.returnUrl(payment) };
  },
  approve: (payment) => fake.setStatus(Number(payment), "approved"),
  notification: (payment, signing) => fake.notification(payment, signing),
  unknownPaymentNotification: () => fake.notification(9_999_999_999),
  malformedNotifications() {
    const genuine = fake.notification(fake.payments.keys().next().value!);
    return [
      { ...genuine, payload: "{not json" },
      { ...genuine, payload: '"a notification"' },
      { ...genuine, payload: JSON.stringify({ type: 42 }) },
      // Signed, but not a payment id.
      fake.notification("abc-123"),
    ];
  },
  outage: (requests) =>
    fake.failNext(requests, {
      status: 500,
      body: { message: "internal_error", error: "internal_server_error", status: 500, cause: [] },
    }),
  refundAtProvider: (payment, amountCents) => void fake.refundFromAccount(Number(payment), amountCents / 100),
  disputeAtProvider: (payment) => fake.setStatus(Number(payment), "charged_back"),
  // Mercado Pago tells of a refund or a chargeback as of any change: a notification about the payment.
  afterSaleNotification: (payment) => fake.notification(payment),
  refundsOf: (payment) =>
    fake.payments.get(Number(payment))!.refunds.map((refund) => Math.round(refund.amount * 100)),
  isOpen: (id) => fake.isPayable(id),
};

describeProviderContract("mercadopago", () => ({ t, driver }));

describe("Mercado Pago specifics", () => {
  async function startPaying() {
    const me = await s.newShopper();
    await s.buyNow(me, await s.newProduct({ priceCents: 1250, shippingCostCents: 300 }));
    const reply = await t.app.inject({
      method: "POST",
      url: "/api/mercadopago/pay",
      headers: me,
      payload: { baseURL: STORE_URL },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    return { me, ...reply.json<{ id: string; init_point: string }>() };
  }

  it("asks for a Checkout Pro preference as Mercado Pago's API documents it", async () => {
    const { id, init_point } = await startPaying();
    const preference = fake.preferences.get(id)!;
    expect(init_point).toBe(preference.init_point);
    const request = fake.received.findLast((received) => received.path === "/checkout/preferences")!;
    expect(request.method).toBe("POST");
    expect(request.headers.authorization).toBe(`Bearer ${MERCADOPAGO_ACCESS_TOKEN}`);
    expect(request.headers["x-idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    const checkout = await s.checkoutOf(id);
    expect(JSON.parse(request.text)).toEqual({
      items: [
        { title: expect.stringMatching(/^Shop test/), quantity: 1, unit_price: 12.5, currency_id: "USD" },
        { title: "shippingCost", quantity: 1, unit_price: 3, currency_id: "USD" },
      ],
      payer: { email: expect.stringMatching(/@voltio\.test$/) },
      external_reference: orderNumber(checkout.id),
      back_urls: {
        success: `${STORE_URL}/purchase/success`,
        failure: `${STORE_URL}/purchase/failure`,
        pending: `${STORE_URL}/purchase/success`,
      },
      auto_return: "approved",
      notification_url: `${STORE_URL}/api/mercadopago/webhook?source_news=webhooks`,
      // Payable until the store's stock hold ends (mercadopago-adapter.test.ts).
      expires: true,
      expiration_date_from: expect.stringMatching(/\+00:00$/),
      expiration_date_to: mercadoPagoDate(checkout.expiresAt),
    });
  });

  it("tries an unanswering API again with the same idempotency key, so one preference is made", async () => {
    const before = fake.received.length;
    fake.failNext(2, {
      status: 503,
      body: { message: "unavailable", error: "service_unavailable", status: 503 },
    });
    const { id } = await startPaying();
    const attempts = fake.received
      .slice(before)
      .filter((received) => received.path === "/checkout/preferences");
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((attempt) => attempt.headers["x-idempotency-key"])).size).toBe(1);
    expect(fake.preferences.has(id)).toBe(true);
  });

  it("reads the payment from collection_id too, and answers 404 for a return without one", async () => {
    const { me, id } = await startPaying();
    const returned = fake.returnUrl(fake.pay(id));
    returned.searchParams.delete("payment_id");
    const feedback = (query: URLSearchParams) =>
      t.app.inject({ url: `/api/mercadopago/feedback?${query}`, headers: me });
    expect((await feedback(returned.searchParams)).json()).toMatchObject({ Status: "approved" });
    // A shopper who left Checkout Pro without paying comes back with payment_id=null.
    for (const paymentId of ["null", "1; DROP TABLE", "9999999998"])
      expect((await feedback(new URLSearchParams({ payment_id: paymentId }))).statusCode).toBe(404);
  });

  it("acknowledges notifications of other topics without asking Mercado Pago", async () => {
    const before = fake.received.length;
    const notification = fake.notification("12345");
    const reply = await t.app.inject({
      ...notification,
      url: notification.url.replace("type=payment", "type=merchant_order"),
    });
    expect(reply.json()).toEqual({ received: true, ignored: true });
    expect(fake.received.length).toBe(before);
  });

  it("accepts a signature whose timestamp is in milliseconds, and refuses one signed over another data.id", async () => {
    const { id } = await startPaying();
    const payment = fake.pay(id);
    const inMilliseconds = fake.notification(payment.id, { signedAt: Date.now() });
    expect((await t.app.inject(inMilliseconds)).json()).toEqual({ received: true });
    const other = fake.notification(payment.id + 1);
    const swapped = await t.app.inject({
      ...other,
      url: other.url.replace(String(payment.id + 1), String(payment.id)),
    });
    expect(swapped.statusCode).toBe(401);
  });
});

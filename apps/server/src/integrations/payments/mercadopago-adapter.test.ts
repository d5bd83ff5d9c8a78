import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutRequest } from "../../../test/checkout-request";
import {
  MERCADOPAGO_ACCESS_TOKEN,
  MERCADOPAGO_WEBHOOK_SECRET,
  startFakeMercadoPago,
  type FakeMercadoPago,
  type MercadoPagoStatus,
} from "../../../test/fakes/mercadopago";
import { InvalidInput, UpstreamUnavailable } from "../../errors";
import { mercadoPagoDate, mercadoPagoProvider } from "./mercadopago";
import type { CheckoutRequest, PaymentProvider } from "./provider";

/**
 * The Mercado Pago adapter on its own, against the fake of its REST API: what the store asks of a
 * payment after the sale (refunds, closing a preference, its re-check) and what Mercado Pago reports of it
 * (currency, refunds, chargebacks), without the rest of the store.
 */
let fake: FakeMercadoPago;
let mercadoPago: PaymentProvider;

beforeAll(async () => {
  fake = await startFakeMercadoPago();
  mercadoPago = mercadoPagoProvider({
    accessToken: MERCADOPAGO_ACCESS_TOKEN,
    webhookSecret: MERCADOPAGO_WEBHOOK_SECRET,
    apiUrl: fake.url,
  });
});
afterAll(() => fake.close());

const HOUR = 3600_000;

async function newPreference(values: Partial<CheckoutRequest> = {}) {
  const request = checkoutRequest(values);
  const { id } = await mercadoPago.createCheckout(request);
  return { id, reference: request.reference };
}

async function paid(status: MercadoPagoStatus = "approved") {
  const preference = await newPreference();
  const payment = fake.pay(preference.id, { status });
  return { ...preference, paymentId: String(payment.id), payment };
}

const requestsSince = (count: number) => fake.received.slice(count);
const lookUp = (paymentId: string) => mercadoPago.paymentFromReturn({ payment_id: paymentId });

describe("a preference's validity", () => {
  it("runs from now (a minute early, for the clocks' skew) to the store's hold, in Mercado Pago's date format, and takes no payment after", async () => {
    const expiresAt = new Date(Date.now() + HOUR);
    const before = Date.now();
    const { id } = await newPreference({ expiresAt });
    const sent = JSON.parse(
      fake.received.findLast((request) => request.path === "/checkout/preferences")!.text,
    );
    expect(sent).toMatchObject({
      expires: true,
      expiration_date_from: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
      expiration_date_to: mercadoPagoDate(expiresAt),
    });
    expect(Date.parse(sent.expiration_date_from)).toBeGreaterThanOrEqual(before - 61_000);
    expect(Date.parse(sent.expiration_date_from)).toBeLessThanOrEqual(Date.now() - 59_000);
    expect(fake.isPayable(id)).toBe(true);

    const lapsed = await newPreference({ expiresAt: new Date(Date.now() - 1000) });
    expect(() => fake.pay(lapsed.id)).toThrow(/not valid/);
  });
});

describe("a payment as Mercado Pago reports it", () => {
  it("has its currency, and stays approved when refunded or charged back, with what came back", async () => {
    const { paymentId, reference } = await paid();
    expect(await lookUp(paymentId)).toMatchObject({
      id: paymentId,
      status: "approved",
      amountCents: 2800,
      reference,
      currency: "usd",
      refundedCents: 0,
      disputed: false,
    });
    fake.refundFromAccount(Number(paymentId), 10.5);
    expect(await lookUp(paymentId)).toMatchObject({
      status: "approved",
      refundedCents: 1050,
      disputed: false,
    });
    fake.refundFromAccount(Number(paymentId));
    expect(fake.payments.get(Number(paymentId))!.status).toBe("refunded");
    expect(await lookUp(paymentId)).toMatchObject({
      status: "approved",
      refundedCents: 2800,
      disputed: false,
    });

    const chargedBack = await paid();
    fake.setStatus(chargedBack.payment.id, "charged_back");
    expect(await lookUp(chargedBack.paymentId)).toMatchObject({ status: "approved", disputed: true });
    const inMediation = await paid();
    fake.setStatus(inMediation.payment.id, "in_mediation");
    expect(await lookUp(inMediation.paymentId)).toMatchObject({ status: "approved", disputed: true });
  });
});

describe("refunds", () => {
  it("are POSTed in dollars with the store's X-Idempotency-Key: the same key again makes no second refund", async () => {
    const { paymentId, payment } = await paid();
    const before = fake.received.length;
    const refund = await mercadoPago.refund(paymentId, 1250, "refund-1-of-" + paymentId);
    expect(refund).toEqual({ id: expect.stringMatching(/^\d+$/), status: "succeeded" });
    const [sent] = requestsSince(before);
    expect(sent!.method).toBe("POST");
    expect(sent!.path).toBe(`/v1/payments/${paymentId}/refunds`);
    expect(sent!.headers["x-idempotency-key"]).toBe("refund-1-of-" + paymentId);
    expect(sent!.headers.authorization).toBe(`Bearer ${MERCADOPAGO_ACCESS_TOKEN}`);
    expect(JSON.parse(sent!.text)).toEqual({ amount: 12.5 });

    expect(await mercadoPago.refund(paymentId, 1250, "refund-1-of-" + paymentId)).toEqual(refund);
    expect(payment.refunds.map((made) => made.amount)).toEqual([12.5]);
    expect(await lookUp(paymentId)).toMatchObject({ status: "approved", refundedCents: 1250 });
  });

  it("are tried again after a lost answer under the same key, and make one refund", async () => {
    const { paymentId, payment } = await paid();
    const before = fake.received.length;
    fake.failNext(1, {
      status: 503,
      body: { message: "unavailable", error: "service_unavailable", status: 503 },
    });
    await mercadoPago.refund(paymentId, 100, "lost-answer-" + paymentId);
    expect(requestsSince(before).map((request) => request.headers["x-idempotency-key"])).toEqual([
      "lost-answer-" + paymentId,
      "lost-answer-" + paymentId,
    ]);
    expect(payment.refunds).toHaveLength(1);
  });

  it("are refused above what is left, for a payment not approved, or one Mercado Pago doesn't have", async () => {
    const { paymentId, payment } = await paid();
    await mercadoPago.refund(paymentId, 2000, "a-" + paymentId);
    await expect(mercadoPago.refund(paymentId, 801, "b-" + paymentId)).rejects.toThrow(UpstreamUnavailable);
    await mercadoPago.refund(paymentId, 800, "c-" + paymentId);
    await expect(mercadoPago.refund(paymentId, 1, "d-" + paymentId)).rejects.toThrow(UpstreamUnavailable);
    expect(payment.refunds.map((made) => made.amount)).toEqual([20, 8]);
    expect(payment.status).toBe("refunded");

    const rejected = await paid("rejected");
    await expect(mercadoPago.refund(rejected.paymentId, 100, "e")).rejects.toThrow(UpstreamUnavailable);
    await expect(mercadoPago.refund("9999999998", 100, "f")).rejects.toThrow(UpstreamUnavailable);
    await expect(mercadoPago.refund("1; DROP", 100, "g")).rejects.toThrow(InvalidInput);
  });
});

describe("closing a checkout", () => {
  it("ends the preference's validity now, so Checkout Pro takes no payment for it", async () => {
    const { id } = await newPreference();
    const before = fake.received.length;
    await mercadoPago.closeCheckout(id);
    const [sent] = requestsSince(before);
    expect(`${sent!.method} ${sent!.path}`).toBe(`PUT /checkout/preferences/${id}`);
    const body = JSON.parse(sent!.text);
    expect(body).toEqual({ expires: true, expiration_date_to: expect.stringMatching(/\+00:00$/) });
    expect(Math.abs(Date.parse(body.expiration_date_to) - Date.now())).toBeLessThan(5000);
    expect(fake.isPayable(id)).toBe(false);
    expect(() => fake.pay(id)).toThrow(/not valid/);
  });

  it("leaves a paid preference's payment as it was, takes an unknown one as closed, and fails while Mercado Pago is down", async () => {
    const { id, paymentId } = await paid();
    await mercadoPago.closeCheckout(id);
    expect(await lookUp(paymentId)).toMatchObject({ status: "approved" });
    await mercadoPago.closeCheckout("2079614828-00000000-0000-0000-0000-000000000000");
    await expect(mercadoPago.closeCheckout("../v1/payments")).rejects.toThrow(InvalidInput);
    const open = await newPreference();
    fake.failNext(3, { status: 500, body: { message: "internal_error", error: "internal", status: 500 } });
    await expect(mercadoPago.closeCheckout(open.id)).rejects.toThrow(UpstreamUnavailable);
    expect(fake.isPayable(open.id)).toBe(true);
  });
});

describe("what became of a checkout", () => {
  it("is searched by its reference, newest first: its approved payment if any, else the latest attempt", async () => {
    const { id, reference } = await newPreference();
    const before = fake.received.length;
    expect(await mercadoPago.paymentOfCheckout({ reference, providerCheckoutId: id })).toBeNull();
    const [search] = requestsSince(before);
    expect(search!.path).toBe("/v1/payments/search");
    expect(Object.fromEntries(search!.query)).toEqual({
      external_reference: reference,
      sort: "date_created",
      criteria: "desc",
    });

    const declined = fake.pay(id, { status: "rejected" });
    expect(await mercadoPago.paymentOfCheckout({ reference, providerCheckoutId: id })).toMatchObject({
      id: String(declined.id),
      status: "rejected",
    });
    const approved = fake.pay(id, { status: "approved" });
    fake.pay(id, { status: "rejected" });
    expect(await mercadoPago.paymentOfCheckout({ reference, providerCheckoutId: id })).toMatchObject({
      id: String(approved.id),
      status: "approved",
      reference,
    });
    // Refunded in full since: still the payment that was made.
    fake.refundFromAccount(approved.id);
    expect(await mercadoPago.paymentOfCheckout({ reference, providerCheckoutId: id })).toMatchObject({
      id: String(approved.id),
      status: "approved",
      refundedCents: 2800,
    });
  });
});

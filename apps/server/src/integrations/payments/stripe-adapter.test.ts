import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutRequest } from "../../../test/checkout-request";
import {
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
  parseStripeForm,
  startFakeStripe,
  type FakeStripe,
} from "../../../test/fakes/stripe";
import { InvalidInput, UpstreamUnavailable } from "../../errors";
import type { CheckoutRequest, PaymentProvider, WebhookRequest } from "./provider";
import { sessionExpiry, stripeProvider } from "./stripe";

/**
 * The Stripe adapter on its own, the official SDK talking to the fake of Stripe's API: what the
 * store asks of a payment after the sale (refunds, closing a checkout, its re-check) and what Stripe reports
 * of it (currency, refunds, disputes), without the rest of the store.
 */
let fake: FakeStripe;
let stripe: PaymentProvider;

beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = stripeProvider({
    secretKey: STRIPE_SECRET_KEY,
    webhookSecret: STRIPE_WEBHOOK_SECRET,
    apiUrl: fake.url,
  });
});
afterAll(() => fake.close());

const HOUR = 3600_000;

/** A checkout made at Stripe, with its reference. */
async function newSession(values: Partial<CheckoutRequest> = {}) {
  const request = checkoutRequest(values);
  const { id } = await stripe.createCheckout(request);
  return { id, reference: request.reference };
}

/** A session paid on Stripe's page: its PaymentIntent is the store's payment id. */
async function paidSession() {
  const session = await newSession();
  fake.complete(session.id, "paid");
  return { ...session, paymentId: fake.sessions.get(session.id)!.payment_intent! };
}

/** A signed event as the webhook route hands it to the adapter. */
const delivered = (event: { headers: Record<string, string>; payload: string }): WebhookRequest => ({
  headers: event.headers,
  rawBody: Buffer.from(event.payload),
  query: {},
});

const outage = (requests: number) =>
  fake.failNext(requests, {
    status: 500,
    body: { error: { message: "An unknown error occurred", type: "api_error" } },
  });

const requestsSince = (count: number) => fake.received.slice(count);

describe("a Checkout Session's expiry", () => {
  it("is the store's hold, clamped into Stripe's window of 30 minutes to 24 hours with a minute of margin", () => {
    const now = Date.UTC(2030, 0, 1, 12);
    const seconds = now / 1000;
    expect(sessionExpiry(new Date(now + 2 * HOUR), now)).toBe(seconds + 2 * 3600);
    expect(sessionExpiry(new Date(now + 5 * 60_000), now)).toBe(seconds + 31 * 60);
    expect(sessionExpiry(new Date(now - HOUR), now)).toBe(seconds + 31 * 60);
    expect(sessionExpiry(new Date(now + 72 * HOUR), now)).toBe(seconds + 24 * 3600 - 60);
  });

  it("is sent as expires_at, and Stripe takes it", async () => {
    const expiresAt = new Date(Date.now() + 2 * HOUR);
    const { id } = await newSession({ expiresAt });
    expect(fake.asked(id).expires_at).toBe(String(Math.floor(expiresAt.getTime() / 1000)));
    expect(fake.sessions.get(id)!.expires_at).toBe(Math.floor(expiresAt.getTime() / 1000));
    // A hold shorter than Stripe allows: the session lasts the least Stripe allows.
    const short = await newSession({ expiresAt: new Date(Date.now() + 60_000) });
    const expiry = fake.sessions.get(short.id)!.expires_at - Date.now() / 1000;
    expect(expiry).toBeGreaterThan(30 * 60);
    expect(expiry).toBeLessThanOrEqual(31 * 60 + 1);
  });
});

describe("a payment as Stripe reports it", () => {
  it("has the session's currency and, from its charge, what was refunded and whether it is disputed", async () => {
    const { id, reference, paymentId } = await paidSession();
    const before = fake.received.length;
    expect(await stripe.paymentFromReturn({ session_id: id })).toMatchObject({
      id: paymentId,
      status: "approved",
      amountCents: 2800,
      reference,
      currency: "usd",
      refundedCents: 0,
      disputed: false,
    });
    const [lookUp] = requestsSince(before);
    expect(lookUp!.path).toBe(`/v1/checkout/sessions/${id}`);
    expect(parseStripeForm(lookUp!.query.toString())).toEqual({ expand: ["payment_intent.latest_charge"] });

    // Refunded from the dashboard, then disputed: still a payment that was made, with what came back.
    fake.refundInDashboard(id, 800);
    expect(await stripe.paymentFromReturn({ session_id: id })).toMatchObject({
      status: "approved",
      refundedCents: 800,
      disputed: false,
    });
    fake.dispute(id);
    expect(await stripe.paymentFromReturn({ session_id: id })).toMatchObject({
      status: "approved",
      refundedCents: 800,
      disputed: true,
    });
  });
});

describe("refunds", () => {
  it("go through the Refunds API with the store's idempotency key: the same key again makes no second refund", async () => {
    const { id, paymentId } = await paidSession();
    const before = fake.received.length;
    const refund = await stripe.refund(paymentId, 1000, "refund-1-of-" + paymentId);
    expect(refund).toEqual({ id: expect.stringMatching(/^re_/), status: "succeeded" });
    const [sent] = requestsSince(before);
    expect(sent!.method).toBe("POST");
    expect(sent!.path).toBe("/v1/refunds");
    expect(sent!.headers["idempotency-key"]).toBe("refund-1-of-" + paymentId);
    expect(parseStripeForm(sent!.text)).toEqual({ payment_intent: paymentId, amount: "1000" });

    expect(await stripe.refund(paymentId, 1000, "refund-1-of-" + paymentId)).toEqual(refund);
    expect(fake.refundsOf(id).map((made) => made.amount)).toEqual([1000]);
    expect((await stripe.paymentFromReturn({ session_id: id }))!.refundedCents).toBe(1000);
  });

  it("are tried again after a lost answer under the same key, and make one refund", async () => {
    const { id, paymentId } = await paidSession();
    const before = fake.received.length;
    outage(1);
    await stripe.refund(paymentId, 500, "lost-answer-" + paymentId);
    const attempts = requestsSince(before).filter((request) => request.path === "/v1/refunds");
    expect(attempts.map((attempt) => attempt.headers["idempotency-key"])).toEqual([
      "lost-answer-" + paymentId,
      "lost-answer-" + paymentId,
    ]);
    expect(fake.refundsOf(id)).toHaveLength(1);
  });

  it("are refused above what is left of the payment, or under a key used for another refund", async () => {
    const { id, paymentId } = await paidSession();
    await stripe.refund(paymentId, 2000, "first-" + paymentId);
    await expect(stripe.refund(paymentId, 801, "second-" + paymentId)).rejects.toThrow(UpstreamUnavailable);
    await expect(stripe.refund(paymentId, 500, "first-" + paymentId)).rejects.toThrow(UpstreamUnavailable);
    expect(fake.refundsOf(id).map((made) => made.amount)).toEqual([2000]);
    await stripe.refund(paymentId, 800, "third-" + paymentId);
    await expect(stripe.refund(paymentId, 1, "fourth-" + paymentId)).rejects.toThrow(UpstreamUnavailable);
    expect(fake.refundsOf(id).map((made) => made.amount)).toEqual([2000, 800]);
  });

  it("are refused for a payment Stripe doesn't have, one not paid, or while Stripe is down", async () => {
    const unpaid = await newSession();
    fake.complete(unpaid.id, "failed");
    await expect(stripe.refund(fake.sessions.get(unpaid.id)!.payment_intent!, 100, "k1")).rejects.toThrow(
      UpstreamUnavailable,
    );
    await expect(stripe.refund("pi_noSuchIntent", 100, "k2")).rejects.toThrow(UpstreamUnavailable);
    await expect(stripe.refund(unpaid.id, 100, "k3")).rejects.toThrow(InvalidInput);
    const { paymentId } = await paidSession();
    outage(3);
    await expect(stripe.refund(paymentId, 100, "k4")).rejects.toThrow(UpstreamUnavailable);
  });
});

describe("closing a checkout", () => {
  it("expires an open session, which then takes no payment", async () => {
    const { id } = await newSession();
    const before = fake.received.length;
    await stripe.closeCheckout(id);
    expect(requestsSince(before).map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST /v1/checkout/sessions/${id}/expire`,
    ]);
    expect(fake.sessions.get(id)!.status).toBe("expired");
    expect(() => fake.complete(id)).toThrow(/expired/);
  });

  it("takes a session already paid, already expired or unknown to Stripe as closed", async () => {
    const { id } = await paidSession();
    await stripe.closeCheckout(id);
    expect(fake.sessions.get(id)!.status).toBe("complete");
    const expired = await newSession();
    fake.expire(expired.id);
    await stripe.closeCheckout(expired.id);
    await stripe.closeCheckout(expired.id);
    await stripe.closeCheckout("cs_test_noSuchSession");
  });

  it("fails while Stripe is down, so the store tries again", async () => {
    const { id } = await newSession();
    outage(3);
    await expect(stripe.closeCheckout(id)).rejects.toThrow(UpstreamUnavailable);
    expect(fake.sessions.get(id)!.status).toBe("open");
  });
});

describe("what became of a checkout", () => {
  it("is nothing until the shopper tried, then the session's payment", async () => {
    const open = await newSession();
    expect(await stripe.paymentOfCheckout({ ...open, providerCheckoutId: open.id })).toBeNull();
    fake.expire(open.id);
    expect(await stripe.paymentOfCheckout({ ...open, providerCheckoutId: open.id })).toBeNull();

    const failed = await newSession();
    fake.complete(failed.id, "failed");
    expect(await stripe.paymentOfCheckout({ ...failed, providerCheckoutId: failed.id })).toMatchObject({
      status: "rejected",
      reference: failed.reference,
      declineReason: "The customer's bank account could not be debited.",
    });

    const paid = await paidSession();
    expect(await stripe.paymentOfCheckout({ ...paid, providerCheckoutId: paid.id })).toMatchObject({
      id: paid.paymentId,
      status: "approved",
      currency: "usd",
    });
    // Another checkout's session, or one Stripe doesn't know, is not this checkout's.
    expect(await stripe.paymentOfCheckout({ reference: "1", providerCheckoutId: paid.id })).toBeNull();
    expect(
      await stripe.paymentOfCheckout({ ...paid, providerCheckoutId: "cs_test_noSuchSession" }),
    ).toBeNull();
  });
});

describe("charge events", () => {
  it("find the session of the refunded charge's PaymentIntent and ask Stripe what became of it", async () => {
    const { id, reference, paymentId } = await paidSession();
    fake.refundInDashboard(id, 700);
    const event = fake.event("charge.refunded", id);
    // Refunded again after the event was sent: the store learns what Stripe has now, not what the event said.
    fake.refundInDashboard(id, 300);
    const before = fake.received.length;
    const notification = await stripe.paymentFromWebhook!(delivered(event));
    expect(notification).toEqual({
      eventId: JSON.parse(event.payload).id,
      payment: expect.objectContaining({ id: paymentId, reference, status: "approved", refundedCents: 1000 }),
    });
    const [list, lookUp] = requestsSince(before);
    expect(list!.path).toBe("/v1/checkout/sessions");
    expect(Object.fromEntries(list!.query)).toEqual({ payment_intent: paymentId, limit: "1" });
    expect(lookUp!.path).toBe(`/v1/checkout/sessions/${id}`);
  });

  it("tell of a dispute when it opens and when it closes", async () => {
    const { id } = await paidSession();
    fake.dispute(id);
    const opened = await stripe.paymentFromWebhook!(delivered(fake.event("charge.dispute.created", id)));
    expect(opened!.payment).toMatchObject({ status: "approved", disputed: true });
    fake.closeDispute(id, "lost");
    const closed = await stripe.paymentFromWebhook!(delivered(fake.event("charge.dispute.closed", id)));
    expect(closed!.payment).toMatchObject({ status: "approved", disputed: true });
  });

  it("about a charge no Checkout Session made are acknowledged; one without its PaymentIntent is refused", async () => {
    expect(
      await stripe.paymentFromWebhook!(delivered(fake.event("charge.refunded", "cs_test_none"))),
    ).toBeNull();
    const direct = fake.signed(
      JSON.stringify({
        id: "evt_8",
        object: "event",
        type: "charge.refunded",
        data: { object: { id: "ch_1", object: "charge", payment_intent: null } },
      }),
    );
    expect(await stripe.paymentFromWebhook!(delivered(direct))).toBeNull();
    const malformed = fake.signed(
      JSON.stringify({
        id: "evt_9",
        object: "event",
        type: "charge.refunded",
        data: { object: { id: "ch_1" } },
      }),
    );
    await expect(stripe.paymentFromWebhook!(delivered(malformed))).rejects.toThrow(InvalidInput);
    const pathInjection = fake.signed(
      JSON.stringify({
        id: "evt_10",
        object: "event",
        type: "charge.dispute.created",
        data: { object: { id: "dp_1", payment_intent: "../../v1/balance" } },
      }),
    );
    await expect(stripe.paymentFromWebhook!(delivered(pathInjection))).rejects.toThrow(InvalidInput);
  });
});

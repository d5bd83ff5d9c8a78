import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutRequest } from "../../../test/checkout-request";
import { createTestDatabase } from "../../../test/database";
import type { Database } from "../../db/client";
import { sandboxCharges, sandboxRefunds } from "../../db/schema";
import { InvalidInput, UpstreamUnavailable } from "../../errors";
import { InvalidWebhookSignature, type PaymentProvider, type WebhookRequest } from "./provider";
import { sandboxProvider } from "./sandbox";
import { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from "./sandbox-webhook";

/**
 * The sandbox adapter on its own: its books (sandbox_charges, sandbox_refunds) as a payment
 * company keeps them: refunds once per idempotency key and never above what was paid, closed checkouts,
 * the re-check, and notifications believed for their signature and then only for the payment they name.
 */
const SECRET = "sandbox-adapter-test-secret";
let database: Database;
let sandbox: PaymentProvider;

beforeAll(async () => {
  database = await createTestDatabase("empty");
  sandbox = sandboxProvider(database.db, { webhookSecret: SECRET });
});
afterAll(() => database.close());

/** The store the sandbox sends the shopper back to. */
const ORIGIN = "http://localhost:3000";
let serial = 0;

const chargeOf = async (id: string) =>
  (await database.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, id)))[0]!;

/** A charge, and a card tried on it with `outcome` as the card page records it. */
async function charged(outcome: "approved" | "rejected" | "pending" | null = "approved") {
  const request = checkoutRequest({}, ORIGIN);
  const { id } = await sandbox.createCheckout(request);
  const paymentId = `sbx_pay_test${++serial}`;
  if (outcome)
    await database.db
      .update(sandboxCharges)
      .set({
        status: outcome,
        paymentId,
        declineReason: outcome === "rejected" ? "Your card was declined." : null,
      })
      .where(eq(sandboxCharges.id, id));
  return { id, paymentId, reference: request.reference };
}

const refundsOf = (chargeId: string) =>
  database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, chargeId));

describe("a sandbox checkout", () => {
  it("is a charge with the store's hold as its expiry, paid on the sandbox's card page", async () => {
    const expiresAt = new Date(Date.now() + 600_000);
    const { id, initPoint } = await sandbox.createCheckout(checkoutRequest({ expiresAt }, ORIGIN));
    expect(initPoint).toBe(`http://localhost:3000/pay/sandbox/${id}`);
    expect(await chargeOf(id)).toMatchObject({ status: "open", expiresAt, refundedCents: 0 });
  });

  it("has a payment in dollars, never disputed, once a card was tried; nothing before", async () => {
    const open = await charged(null);
    expect(await sandbox.paymentOfCheckout({ ...open, providerCheckoutId: open.id })).toBeNull();
    const { id, paymentId, reference } = await charged("approved");
    const payment = {
      id: paymentId,
      status: "approved",
      amountCents: 2800,
      reference,
      currency: "usd",
      refundedCents: 0,
      disputed: false,
    };
    expect(await sandbox.paymentOfCheckout({ reference, providerCheckoutId: id })).toMatchObject(payment);
    expect(await sandbox.paymentFromReturn({ payment_id: paymentId })).toMatchObject(payment);
    // Another checkout's charge is not this one's.
    expect(await sandbox.paymentOfCheckout({ reference: "1", providerCheckoutId: id })).toBeNull();
    expect(await sandbox.paymentOfCheckout({ reference, providerCheckoutId: "sbx_ch_none" })).toBeNull();
    const declined = await charged("rejected");
    expect(await sandbox.paymentOfCheckout({ ...declined, providerCheckoutId: declined.id })).toMatchObject({
      status: "rejected",
      declineReason: "Your card was declined.",
    });
  });
});

describe("sandbox refunds", () => {
  it("record a refund and raise the charge's refunded amount together; the same key again changes nothing", async () => {
    const { id, paymentId, reference } = await charged();
    const refund = await sandbox.refund(paymentId, 1000, `refund-a-${paymentId}`);
    expect(refund).toEqual({ id: expect.stringMatching(/^sbx_re_[0-9a-f]{24}$/), status: "succeeded" });
    expect(await sandbox.refund(paymentId, 1000, `refund-a-${paymentId}`)).toEqual(refund);
    expect(await refundsOf(id)).toMatchObject([
      { id: refund.id, amountCents: 1000, idempotencyKey: `refund-a-${paymentId}` },
    ]);
    expect((await chargeOf(id)).refundedCents).toBe(1000);
    // Refunded, the payment was still made: approved, with what came back.
    expect(await sandbox.paymentOfCheckout({ reference, providerCheckoutId: id })).toMatchObject({
      status: "approved",
      refundedCents: 1000,
    });
  });

  it("make one refund for one key, however many ask at once", async () => {
    const { id, paymentId } = await charged();
    const refunds = await Promise.all(
      Array.from({ length: 6 }, () => sandbox.refund(paymentId, 700, `at-once-${paymentId}`)),
    );
    expect(new Set(refunds.map((refund) => refund.id)).size).toBe(1);
    expect(await refundsOf(id)).toHaveLength(1);
    expect((await chargeOf(id)).refundedCents).toBe(700);
  });

  it("are refused above what is left, under a key used for another refund, or for a payment not approved", async () => {
    const { id, paymentId } = await charged();
    await sandbox.refund(paymentId, 2000, `b1-${paymentId}`);
    await expect(sandbox.refund(paymentId, 801, `b2-${paymentId}`)).rejects.toThrow(UpstreamUnavailable);
    await expect(sandbox.refund(paymentId, 500, `b1-${paymentId}`)).rejects.toThrow(UpstreamUnavailable);
    await sandbox.refund(paymentId, 800, `b3-${paymentId}`);
    await expect(sandbox.refund(paymentId, 1, `b4-${paymentId}`)).rejects.toThrow(UpstreamUnavailable);
    for (const cents of [0, -5, 1.5])
      await expect(sandbox.refund(paymentId, cents, `b5-${paymentId}`)).rejects.toThrow(UpstreamUnavailable);
    expect((await refundsOf(id)).map((refund) => refund.amountCents)).toEqual([2000, 800]);
    expect((await chargeOf(id)).refundedCents).toBe(2800);

    const other = await charged();
    await expect(sandbox.refund(other.paymentId, 800, `b3-${paymentId}`)).rejects.toThrow(
      UpstreamUnavailable,
    );
    const declined = await charged("rejected");
    await expect(sandbox.refund(declined.paymentId, 100, `b6-${paymentId}`)).rejects.toThrow(
      UpstreamUnavailable,
    );
    await expect(sandbox.refund("sbx_pay_none", 100, `b7-${paymentId}`)).rejects.toThrow(UpstreamUnavailable);
    expect(await refundsOf(other.id)).toHaveLength(0);
  });
});

describe("closing a sandbox checkout", () => {
  it("expires a charge not yet paid, and leaves an approved one approved", async () => {
    const open = await charged(null);
    await sandbox.closeCheckout(open.id);
    expect((await chargeOf(open.id)).status).toBe("expired");
    expect(await sandbox.paymentOfCheckout({ ...open, providerCheckoutId: open.id })).toBeNull();

    const approved = await charged("approved");
    await sandbox.closeCheckout(approved.id);
    expect((await chargeOf(approved.id)).status).toBe("approved");

    // A card tried and left pending, then the checkout closed: that attempt will never be paid.
    const pending = await charged("pending");
    await sandbox.closeCheckout(pending.id);
    expect(await sandbox.paymentOfCheckout({ ...pending, providerCheckoutId: pending.id })).toBeNull();
    expect(await sandbox.paymentFromReturn({ payment_id: pending.paymentId })).toMatchObject({
      status: "rejected",
      declineReason: "The payment was closed before it was completed.",
    });
    await sandbox.closeCheckout("sbx_ch_none");
  });
});

describe("a sandbox notification", () => {
  const delivered = (body: string, header = signSandboxEvent(SECRET, body)): WebhookRequest => ({
    headers: { [SANDBOX_SIGNATURE_HEADER]: header, "content-type": "application/json" },
    rawBody: Buffer.from(body),
    query: {},
  });
  const event = (paymentId: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      id: "evt_0123456789abcdef",
      type: "payment.updated",
      data: { payment_id: paymentId },
      ...extra,
    });

  it("names a payment, which is looked up in the books: what the body says of it is not read", async () => {
    const { paymentId, reference } = await charged("rejected");
    const notification = await sandbox.paymentFromWebhook!(
      delivered(event(paymentId, { status: "approved", amountCents: 1 })),
    );
    expect(notification).toEqual({
      eventId: "evt_0123456789abcdef",
      payment: expect.objectContaining({ id: paymentId, reference, status: "rejected", amountCents: 2800 }),
    });
    expect(await sandbox.paymentFromWebhook!(delivered(event("sbx_pay_none")))).toBeNull();
    expect(
      await sandbox.paymentFromWebhook!(delivered(JSON.stringify({ id: "evt_1", type: "charge.refunded" }))),
    ).toBeNull();
  });

  it("is refused unsigned, forged, for another body, or too old; and a signed one that makes no sense is invalid", async () => {
    const { paymentId } = await charged();
    const body = event(paymentId);
    const now = Math.floor(Date.now() / 1000);
    for (const request of [
      delivered(body, signSandboxEvent("not-the-secret", body)),
      delivered(body, signSandboxEvent(SECRET, body, now - 3600)),
      delivered(event("sbx_pay_other"), signSandboxEvent(SECRET, body)),
      { ...delivered(body), headers: {} },
    ])
      await expect(sandbox.paymentFromWebhook!(request)).rejects.toThrow(InvalidWebhookSignature);
    for (const malformed of [
      "{not json",
      "[]",
      JSON.stringify({ id: 5, type: "payment.updated" }),
      JSON.stringify({ id: "evt_1", type: "payment.updated" }),
      JSON.stringify({ id: "evt_1", type: "payment.updated", data: { payment_id: 7 } }),
    ])
      await expect(sandbox.paymentFromWebhook!(delivered(malformed))).rejects.toThrow(InvalidInput);
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop } from "../../../test/shop";
import { sandboxCharges } from "../../db/schema";
import type { CheckoutRequest } from "./provider";
import { sandboxProvider } from "./sandbox";
import { checkCard } from "./sandbox-page";
import {
  SANDBOX_RETRY_DELAYS_MS,
  SANDBOX_SIGNATURE_HEADER,
  signSandboxEvent,
  startSandboxNotifier,
  verifySandboxSignature,
} from "./sandbox-webhook";

/**
 * The sandbox as a provider the store reaches over HTTP: its card page, driven as
 * a browser posts its form, and its signed notifications to the store's webhook, delivered for real to an
 * app listening on this machine.
 */
const STORE = "http://localhost:3000";

/** A free port on this machine, for an app whose public address must be known before it listens. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const form = (fields: Record<string, string>) => ({
  headers: { "content-type": "application/x-www-form-urlencoded" },
  payload: new URLSearchParams(fields).toString(),
});

describe("the sandbox card page", () => {
  let t: TestContext;
  let serial = 0;

  beforeAll(async () => {
    // Its notifications go nowhere here (port 9 refuses): this part is about the page.
    t = await createTestApp({ env: { PUBLIC_URL: "http://127.0.0.1:9" } });
  });
  afterAll(() => t.close());

  const sandbox = () => sandboxProvider(t.database.db, { webhookSecret: "not-used-by-these-tests" });

  async function newCharge(values: Partial<CheckoutRequest> = {}) {
    const reference = String(90_000 + ++serial);
    const { id, initPoint } = await sandbox().createCheckout({
      reference,
      description: "Voltio order",
      items: [{ title: "Lamp", amount: 1, unitPriceCents: 2800 }],
      amountCents: 2800,
      payerEmail: "buyer@voltio.test",
      successUrl: `${STORE}/purchase/success`,
      failureUrl: `${STORE}/purchase/failure`,
      expiresAt: new Date(Date.now() + 15 * 60_000),
      ...values,
    });
    return { id, reference, url: new URL(initPoint).pathname };
  }

  const chargeOf = async (id: string) =>
    (await t.database.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, id)))[0]!;

  const payWith = (url: string, number: string, expiry = "12/40", cvc = "123", language = "en") =>
    t.app.inject({
      method: "POST",
      url,
      ...form({ number, expiry, cvc }),
      headers: { ...form({}).headers, "accept-language": language },
    });

  it("asks again with what was typed still in the form, HTML-escaped", async () => {
    const { url } = await newCharge();
    const reply = await payWith(url, '4242"><script>alert(1)</script>', "13/30", "12");
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toContain("Use one of the sandbox test cards.");
    expect(reply.body).toContain('value="4242&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"');
    expect(reply.body).not.toContain("<script>alert");
    expect(reply.body).toContain('value="13/30"');
    expect(reply.body).toContain('value="12"');
    const expiry = await payWith(url, "4242 4242 4242 4242", "13/30");
    expect(expiry.body).toContain('value="4242 4242 4242 4242"');
    expect(expiry.body).toMatch(/id="expiry"[^>]*aria-invalid="true"/);
  });

  it("takes the expiry as 12/30, 12 / 30, 1230 or 12 30", async () => {
    const now = new Date(Date.UTC(2029, 5, 1));
    for (const expiry of ["12/30", "12 / 30", "1230", "12 30", " 12/30 "])
      expect(checkCard({ number: "4242424242424242", expiry, cvc: "123" }, "en", now)).toEqual({
        ok: true,
        outcome: "approved",
      });
    for (const expiry of ["13/30", "12/3", "1/30", "12-30", "05/29", "123"])
      expect(checkCard({ number: "4242424242424242", expiry, cvc: "123" }, "en", now)).toMatchObject({
        ok: false,
        field: "expiry",
      });
    const { url } = await newCharge();
    expect((await payWith(url, "4242424242424242", "12 40")).statusCode).toBe(303);
  });

  it("sends the shopper back to the store's return page for an approved charge, as its first approval did", async () => {
    const { id, url, reference } = await newCharge();
    const paid = await payWith(url, "4242 4242 4242 4242");
    expect(paid.statusCode).toBe(303);
    const returned = new URL(paid.headers.location as string);
    const { paymentId } = await chargeOf(id);
    expect(returned.origin + returned.pathname).toBe(`${STORE}/purchase/success`);
    expect(Object.fromEntries(returned.searchParams)).toEqual({
      payment_id: paymentId,
      status: "approved",
      external_reference: reference,
    });
    // The back button, a reload, a double click: the same way back, and no second payment.
    for (const again of [
      await t.app.inject({ url }),
      await payWith(url, "4242 4242 4242 4242"),
      await payWith(url, "4000 0000 0000 0002"),
    ]) {
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toBe(returned.href);
    }
    expect(await chargeOf(id)).toMatchObject({ status: "approved", paymentId });
  });

  it("says what was refunded of an approved charge, with the way back to the store", async () => {
    const { id, url } = await newCharge();
    const paid = await payWith(url, "4242424242424242");
    await sandbox().refund((await chargeOf(id)).paymentId!, 500, `refund-${id}`);
    const english = await t.app.inject({ url });
    expect(english.statusCode).toBe(200);
    expect(english.body).toContain("This payment is already done.");
    expect(english.body).toContain("Of it, US$ 5.00 has been refunded.");
    expect(english.body).toContain(`href="${(paid.headers.location as string).replaceAll("&", "&#38;")}"`);
    const spanish = await t.app.inject({ url, headers: { "accept-language": "es-AR,es;q=0.9" } });
    expect(spanish.body).toContain("De él, se devolvieron US$ 5.00.");
    expect(spanish.body).toContain("Volver a la tienda");
  });

  it("refuses a charge the store closed, or one past its hold, pointing back to the store's checkout", async () => {
    const closed = await newCharge();
    await sandbox().closeCheckout(closed.id);
    const late = await newCharge({ expiresAt: new Date(Date.now() - 1000) });
    for (const { id, url } of [closed, late]) {
      const shown = await t.app.inject({ url });
      expect(shown.statusCode).toBe(410);
      expect(shown.body).toContain("This payment was closed");
      expect(shown.body).toContain(`href="${STORE}/purchase"`);
      expect(shown.body).not.toContain("<form");
      const paid = await payWith(url, "4242 4242 4242 4242");
      expect(paid.statusCode).toBe(410);
      expect(await chargeOf(id)).toMatchObject({ paymentId: null });
      const spanish = await payWith(url, "4242 4242 4242 4242", "12/40", "123", "es");
      expect(spanish.body).toContain("Este pago se cerró");
      expect(spanish.body).toContain("Volver a la compra");
    }
    // A card tried before the close doesn't reopen it.
    const declined = await newCharge();
    await payWith(declined.url, "4000 0000 0000 0002");
    await sandbox().closeCheckout(declined.id);
    expect((await payWith(declined.url, "4242 4242 4242 4242")).statusCode).toBe(410);
    expect((await chargeOf(declined.id)).status).toBe("expired");
  });
});

describe("the sandbox's notifications to the store", () => {
  let t: TestContext;
  let secret: string;
  const received: { signature: string; body: Buffer; status: number; reply: string }[] = [];

  beforeAll(async () => {
    const port = await freePort();
    t = await createTestApp({ env: { PUBLIC_URL: `http://127.0.0.1:${port}` }, sandboxNotifications: true });
    if (t.config.payments.provider !== "sandbox") throw new Error("the tests' app must use the sandbox");
    secret = t.config.payments.webhookSecret;
    t.app.addHook("onSend", async (request, reply, payload) => {
      if (request.url === "/api/sandbox/webhook" && request.method === "POST")
        received.push({
          signature: String(request.headers[SANDBOX_SIGNATURE_HEADER]),
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          status: reply.statusCode,
          reply: String(payload),
        });
      return payload;
    });
    await t.app.listen({ host: "127.0.0.1", port });
  });
  afterAll(() => t.close());

  it("reach the store's webhook signed, are verified there, and settle the payment with no return page", async () => {
    const s = shop(t);
    const me = await s.newShopper();
    const line = await s.buyNow(me, await s.newProduct());
    const started = await t.app.inject({
      method: "POST",
      url: "/api/sandbox/pay",
      headers: me,
      payload: { baseURL: t.config.publicUrl },
    });
    expect(started.statusCode, started.body).toBe(200);
    // The shopper's browser on the card page, over the network like the notification.
    const carded = await fetch(started.json<{ init_point: string }>().init_point, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" }),
      redirect: "manual",
    });
    expect(carded.status).toBe(303);
    const paymentId = new URL(carded.headers.get("location")!).searchParams.get("payment_id");

    await until(() => received.some((notification) => notification.status === 200));
    const [notification] = received;
    expect(notification!.reply).toBe(JSON.stringify({ received: true }));
    expect(JSON.parse(notification!.body.toString("utf8"))).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "payment.updated",
      data: { payment_id: paymentId },
    });
    expect(notification!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    verifySandboxSignature(secret, notification!.signature, notification!.body);
    // The return page was never asked: the notification alone finished the order.
    await until(async () => (await s.orderOf(line)).status === "finished");
  });

  it("are refused with 401 when tampered with, signed with another secret or too old", async () => {
    const [genuine] = received;
    const body = genuine!.body.toString("utf8");
    const post = (payload: string, signature: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/sandbox/webhook",
        headers: { "content-type": "application/json", [SANDBOX_SIGNATURE_HEADER]: signature },
        payload,
      });
    const tampered = body.replace(/"payment_id":"[^"]+"/, '"payment_id":"sbx_pay_someoneelse"');
    const old = Math.floor(Date.now() / 1000) - 3600;
    for (const [payload, signature] of [
      [tampered, genuine!.signature],
      [body, signSandboxEvent("another-secret-entirely", body)],
      [body, signSandboxEvent(secret, body, old)],
      [body, ""],
    ] as const) {
      const reply = await post(payload, signature);
      expect(reply.statusCode, reply.body).toBe(401);
    }
    // Signed anew, the same event is taken (and, seen before, changes nothing).
    expect((await post(body, signSandboxEvent(secret, body))).statusCode).toBe(200);
  });
});

describe("the sandbox's notifications when the store doesn't take them", () => {
  it("are tried again later, and stop when the app closes", async () => {
    const attempts: number[] = [];
    const store: Server = createServer((request, response) => {
      request.resume();
      attempts.push(Date.now());
      response.writeHead(503).end();
    });
    await new Promise<void>((resolve) => store.listen(0, "127.0.0.1", resolve));
    const storeUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
    // Production's first retry (1 s), then quick ones: a notifier still running after close would show at once.
    const t = await createTestApp({
      env: { PUBLIC_URL: storeUrl },
      sandboxNotifications: true,
      sandboxRetryDelaysMs: [SANDBOX_RETRY_DELAYS_MS[0]!, 50, 50, 50],
    });
    try {
      const { initPoint } = await sandboxProvider(t.database.db, { webhookSecret: "x" }).createCheckout({
        // No checkout of the store's (the demo's purchases are checkouts 1 and up): the page decides alone.
        reference: "sandbox-only",
        description: "Voltio order",
        items: [{ title: "Lamp", amount: 1, unitPriceCents: 100 }],
        amountCents: 100,
        payerEmail: "buyer@voltio.test",
        successUrl: `${STORE}/purchase/success`,
        failureUrl: `${STORE}/purchase/failure`,
        expiresAt: new Date(Date.now() + 60_000),
      });
      const paid = await t.app.inject({
        method: "POST",
        url: new URL(initPoint).pathname,
        ...form({ number: "4000000000000002", expiry: "12/40", cvc: "123" }),
      });
      expect(paid.statusCode).toBe(303);
      // The first retry comes a second after the first attempt.
      await until(() => attempts.length === 2, 5000);
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
    } finally {
      await t.close();
    }
    // The next retry was due 50 ms later. A notifier started after the close, with the same delays, gets
    // through its first retry and attempt: the closed app's, whose timer came first, sent nothing meanwhile.
    const witness = startSandboxNotifier({
      url: `${storeUrl}/witness`,
      secret: "x",
      log: { warn: () => {} },
      retryDelaysMs: [50, 50],
    });
    witness.notify("sbx_pay_witness");
    await until(() => witness.pending === 0);
    expect(attempts).toHaveLength(2 + 3);
    await witness.stop();
    store.closeAllConnections();
    await new Promise((resolve) => store.close(resolve));
  });
});

import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import {
  auditLog,
  checkouts,
  mailOutbox,
  payments,
  products,
  refunds,
  sandboxCharges,
  saleProducts,
  sales,
  sandboxRefunds,
  stockHolds,
} from "../../db/schema";
import { startCheckout } from "./checkout";
import { settlePayment } from "./settlement";

/**
 * Money that adds up, with the sandbox provider on the real app: one checkout per shopper, stock
 * held while paying, refunds through the provider, every charge accounted for.
 */
let t: TestContext;
let store: Shop;
let admin: Headers;
const BASE = "http://localhost:3000";
/** How long a Pay waits for a live start of the same shopper's (checkout.ts): a crashed one isn't waited for. */
const WAIT_FOR_A_LIVE_START_MS = 25_000;

const pay = (headers: Headers) =>
  t.app.inject({ method: "POST", url: "/api/sandbox/pay", headers, payload: { baseURL: BASE } });

async function started(headers: Headers) {
  const reply = await pay(headers);
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ id: string; init_point: string }>();
}

/** The shopper on the sandbox's card page; the return page's URL. */
async function card(initPoint: string, number = "4242424242424242") {
  const reply = await t.app.inject({
    method: "POST",
    url: new URL(initPoint).pathname,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ number, expiry: "12/40", cvc: "123" }).toString(),
  });
  expect(reply.statusCode, reply.body).toBe(303);
  return new URL(reply.headers.location as string);
}

const feedback = async (headers: Headers, returned: URL) =>
  (await t.app.inject({ url: `/api/sandbox/feedback${returned.search}`, headers })).json<{
    Status: string;
    order?: { number: string };
  }>();

const userIdOf = async (headers: Headers) =>
  (await t.app.inject({ url: "/api/user", headers })).json<{ id: number }>().id;

const paymentsOf = (checkoutId: number) =>
  t.database.db.select().from(payments).where(eq(payments.checkoutId, checkoutId));

const openCheckouts = async (userId: number) =>
  t.database.db
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.userId, userId), eq(checkouts.status, "open")));

/** Invariant: every approved payment pays its checkout or was given back in full. */
async function unaccounted() {
  const rows = await t.database.db
    .select({ id: payments.id })
    .from(payments)
    .innerJoin(checkouts, eq(checkouts.id, payments.checkoutId))
    .where(
      sql`${payments.status} = 'approved' and ${payments.refundedCents} < ${payments.amountCents}
        and not (${checkouts.status} = 'paid' and ${checkouts.providerPaymentId} = ${payments.providerPaymentId})`,
    );
  return rows.length;
}

beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
  admin = await t.bearer(1);
});
afterAll(() => t.close());

describe("one checkout at a time", () => {
  it("answers six concurrent Pays of one shopper with one open checkout", async () => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const replies = await Promise.all(Array.from({ length: 6 }, () => pay(me)));
    expect(replies.map((reply) => reply.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(replies.map((reply) => reply.json<{ id: string }>().id)).size).toBe(1);
    expect(await openCheckouts(await userIdOf(me))).toHaveLength(1);
  });

  it("refunds a payment made in an old tab whose checkout a newer one replaced", async () => {
    const me = await store.newShopper();
    const first = await store.newProduct();
    await store.buyNow(me, first);
    const oldTab = await started(me);
    await store.buyNow(me, await store.newProduct());
    const newTab = await started(me);
    expect(newTab.id).not.toBe(oldTab.id);
    // The old checkout was closed at the provider: its card page takes no card any more.
    const closedPage = await t.app.inject({ url: new URL(oldTab.init_point).pathname });
    expect(closedPage.statusCode).toBeGreaterThanOrEqual(400);
    const [oldCharge] = await t.database.db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.id, oldTab.id));
    expect(oldCharge!.status).toBe("expired");

    // Had the provider taken a card for it anyway (a hosted page closes late), the money goes back by itself.
    const returned = await store.approvedAnyway(oldTab.init_point);
    expect((await feedback(me, returned)).Status).toBe("refund_needed");
    await t.app.paymentsWorker.runOnce();
    const [refunded] = await t.database.db
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.chargeId, oldTab.id));
    expect(refunded!.amountCents).toBe(oldCharge!.amountCents);
    const oldCheckout = await store.checkoutOf(oldTab.id);
    expect((await paymentsOf(oldCheckout.id))[0]!.refundedCents).toBe(oldCharge!.amountCents);
    // The new checkout still pays both orders.
    expect((await feedback(me, await card(newTab.init_point))).Status).toBe("approved");
    expect(await unaccounted()).toBe(0);
  });

  it("refunds a second approved payment of a checkout that was paid already", async () => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const { id, init_point } = await started(me);
    expect((await feedback(me, await card(init_point))).Status).toBe("approved");
    // The provider's page took a second card for the same checkout.
    expect((await feedback(me, await store.approvedAnyway(init_point))).Status).toBe("refund_needed");
    await t.app.paymentsWorker.runOnce();
    const rows = await paymentsOf((await store.checkoutOf(id)).id);
    expect(rows).toHaveLength(2);
    expect(rows.filter((row) => row.refundedCents === row.amountCents)).toHaveLength(1);
    expect(await unaccounted()).toBe(0);
  });
});

describe("an old tab and a newer Pay", () => {
  /** The provider closes a checkout only after `meanwhile` ran: what an old tab does in between. */
  async function slowToClose<T>(
    providerCheckoutId: string,
    meanwhile: () => Promise<T>,
    pay: () => Promise<void>,
  ) {
    const provider = t.app.paymentProvider;
    const close = provider.closeCheckout;
    let during: T | undefined;
    provider.closeCheckout = async (id) => {
      if (id === providerCheckoutId) during ??= await meanwhile();
      return close(id);
    };
    try {
      await pay();
    } finally {
      provider.closeCheckout = close;
    }
    return during;
  }

  it("refuses the old tab's card once a newer Pay replaced its checkout, before the provider closed it", async () => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const oldTab = await started(me);
    await store.buyNow(me, await store.newProduct());
    let newTab!: { id: string; init_point: string };
    const submit = (language: string) =>
      t.app.inject({
        method: "POST",
        url: new URL(oldTab.init_point).pathname,
        headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": language },
        payload: new URLSearchParams({ number: "4242424242424242", expiry: "12/40", cvc: "123" }).toString(),
      });
    const refused = await slowToClose(
      oldTab.id,
      () => submit("es-AR"),
      async () => {
        newTab = await started(me);
      },
    );
    expect(refused!.statusCode, refused!.body).toBe(410);
    expect(refused!.body).toContain(
      "Un pago más nuevo, iniciado en otra pestaña o ventana, reemplazó a este.",
    );
    const again = await submit("en");
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain("A newer payment, started in another tab or window, replaced this one.");
    const [oldCharge] = await t.database.db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.id, oldTab.id));
    expect(oldCharge).toMatchObject({ status: "expired", paymentId: null });
    // The newer page pays both orders, the only charge.
    expect((await feedback(me, await card(newTab.init_point))).Status).toBe("approved");
    expect(await unaccounted()).toBe(0);
  });

  it("refunds a late payment of a checkout past its hold once the shopper paid again, rather than paying with it", async () => {
    const me = await store.newShopper();
    const line = await store.buyNow(me, await store.newProduct({ stock: 5 }));
    const oldTab = await started(me);
    // Its hold ended and the worker closed it, here and at the provider; then the shopper presses Pay again.
    const past = new Date(Date.now() - 2 * 60_000);
    await t.database.db
      .update(checkouts)
      .set({ createdAt: past, expiresAt: past })
      .where(eq(checkouts.providerCheckoutId, oldTab.id));
    await t.app.paymentsWorker.runOnce();
    expect((await store.checkoutOf(oldTab.id)).status).toBe("expired");
    const newTab = await started(me);
    // The provider took a card on the old page all the same: it pays nothing, and goes back.
    expect((await feedback(me, await store.approvedAnyway(oldTab.init_point))).Status).toBe("refund_needed");
    expect(await store.orderOf(line)).toMatchObject({ status: "pending" });
    expect((await feedback(me, await card(newTab.init_point))).Status).toBe("approved");
    expect(await store.orderOf(line)).toMatchObject({ status: "finished" });
    await t.app.paymentsWorker.runOnce();
    expect(await unaccounted()).toBe(0);
  });
});

describe("a Pay that died between saving its checkout and the provider's answer", () => {
  /** The provider's next checkout answers only when the returned function is called. */
  function holdNextCheckout() {
    const provider = t.app.paymentProvider;
    const create = provider.createCheckout;
    let asked!: () => void;
    const reached = new Promise<void>((resolve) => (asked = resolve));
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    provider.createCheckout = async (request) => {
      provider.createCheckout = create;
      asked();
      await answered;
      return create(request);
    };
    return { reached, answer };
  }

  const startOf = async (userId: number) => (await openCheckouts(userId))[0]!;

  it("is replaced by the next Pay at once, and the dead one's late answer pays nothing", async () => {
    const me = await store.newShopper();
    const userId = await userIdOf(me);
    const productId = await store.newProduct({ stock: 1 });
    await store.buyNow(me, productId);
    const provider = holdNextCheckout();
    const dead = pay(me);
    await provider.reached;
    const crashed = await startOf(userId);
    expect(crashed).toMatchObject({ providerCheckoutId: null });
    // Killed there: nothing renews its lease, which runs out (START_LEASE_SECONDS later, here at once).
    await t.database.db
      .update(checkouts)
      .set({ startingUntil: new Date(Date.now() - 1000) })
      .where(eq(checkouts.id, crashed.id));

    const began = Date.now();
    const retried = await pay(me);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(Date.now() - began).toBeLessThan(WAIT_FOR_A_LIVE_START_MS);
    const [old] = await t.database.db.select().from(checkouts).where(eq(checkouts.id, crashed.id));
    expect(old!.status).toBe("replaced");
    const current = await startOf(userId);
    expect(current.providerCheckoutId).toBe(retried.json<{ id: string }>().id);

    // Had the killed request's call come back after all, its session is closed and nobody is sent to it.
    provider.answer();
    const late = await dead;
    expect(late.statusCode, late.body).toBe(409);
    const charges = await t.database.db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.reference, `V-${String(crashed.id).padStart(6, "0")}`));
    expect(charges.map((charge) => charge.status)).toEqual(["expired"]);
    expect((await feedback(me, await card(current.initPoint!))).Status).toBe("approved");
    expect(await store.stockOf(productId)).toBe(0);
  });

  it("gives its held units back at the worker's next round, not when the hold ends", async () => {
    const me = await store.newShopper();
    const userId = await userIdOf(me);
    const productId = await store.newProduct({ stock: 1 });
    await store.buyNow(me, productId);
    const other = await store.newShopper();
    await store.buyNow(other, productId);
    const provider = holdNextCheckout();
    const dead = pay(me);
    await provider.reached;
    const crashed = await startOf(userId);
    const minutesAgo = new Date(Date.now() - 2 * 60_000);
    await t.database.db
      .update(checkouts)
      .set({ createdAt: minutesAgo, startingUntil: minutesAgo })
      .where(eq(checkouts.id, crashed.id));
    expect((await pay(other)).statusCode).toBe(409);
    await t.app.paymentsWorker.runOnce();
    expect(
      (await t.database.db.select().from(checkouts).where(eq(checkouts.id, crashed.id)))[0]!.status,
    ).toBe("expired");
    expect((await pay(other)).statusCode).toBe(200);
    provider.answer();
    expect((await dead).statusCode).toBe(409);
  });

  it("is not taken for dead while its provider call outlasts the lease: a second Pay waits for it", async () => {
    const me = await store.newShopper();
    const userId = await userIdOf(me);
    await store.buyNow(me, await store.newProduct());
    const provider = holdNextCheckout();
    // A lease of 1.5 s, renewed every 0.5 s while the provider takes its time: a renewal may come up to a second
    // late (a loaded CI machine, PGlite's one connection shared with the second Pay's polling) and still hold it.
    const deps = { db: t.database.db, provider: t.app.paymentProvider, holdSeconds: 900, leaseSeconds: 1.5 };
    const body = { baseURL: BASE };
    const first = startCheckout(deps, userId, body, [BASE]);
    await provider.reached;
    const second = startCheckout(deps, userId, body, [BASE]);
    const { id } = await startOf(userId);
    // Renewed past two whole leases, with the second Pay watching all along.
    const leases = new Set<number>();
    await vi.waitFor(
      async () => {
        const [row] = await t.database.db.select().from(checkouts).where(eq(checkouts.id, id));
        expect(row!.status).toBe("open");
        leases.add(row!.startingUntil!.getTime());
        expect(leases.size).toBeGreaterThanOrEqual(7);
      },
      { timeout: 20_000, interval: 100 },
    );
    provider.answer();
    const [a, b] = await Promise.all([first, second]);
    expect(b.id).toBe(a.id);
    expect(await openCheckouts(userId)).toHaveLength(1);
  });
});

describe("stock held while paying", () => {
  it("holds a checkout's units from others and refuses what can't be held, before any payment", async () => {
    const productId = await store.newProduct({ stock: 3 });
    const [a, b] = [await store.newShopper(), await store.newShopper()];
    await store.buyNow(a, productId, 2);
    await store.buyNow(b, productId, 2);
    await started(a);
    const shown = await t.app.inject({ url: `/api/products/${productId}` });
    expect(shown.json<{ stock: number }>().stock).toBe(1);
    const refused = await pay(b);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: "Only 1 left",
      productId,
      variantId: await store.variantOf(productId),
      stock: 1,
    });
    expect(await t.database.db.select().from(payments).where(eq(payments.checkoutId, -1))).toHaveLength(0);
    // Adding to a cart is capped by what isn't held.
    const c = await store.newShopper();
    const tooMany = await t.app.inject({
      method: "POST",
      url: "/api/order",
      headers: c,
      payload: { status: "inCart", productId, amount: 2 },
    });
    expect(tooMany.statusCode).toBe(409);
    expect(await store.stockOf(productId)).toBe(3);
  });

  it("gives held units back when the hold expires, when a card is declined and when the line is removed", async () => {
    const productId = await store.newProduct({ stock: 1 });
    const [a, b] = [await store.newShopper(), await store.newShopper()];
    const aLine = await store.buyNow(a, productId);
    await store.buyNow(b, productId);
    const aTab = await started(a);
    expect((await pay(b)).statusCode).toBe(409);

    // Declined: the unit is free again at once.
    expect((await feedback(a, await card(aTab.init_point, "4000000000000002"))).Status).toBe("rejected");
    const bTab = await started(b);
    expect((await pay(a)).statusCode).toBe(409);

    // Expired: nothing has to run for an expired hold to stop counting.
    await t.database.db
      .update(stockHolds)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(stockHolds.productId, productId));
    const aAgain = await started(a);

    // Removed: the shopper deletes the pending line; the unit is free again.
    const removed = await t.app.inject({ method: "DELETE", url: `/api/order/${aLine}`, headers: a });
    expect(removed.statusCode, removed.body).toBe(200);
    const active = await t.database.db
      .select()
      .from(stockHolds)
      .where(and(eq(stockHolds.productId, productId), sql`${stockHolds.expiresAt} > now()`));
    expect(active).toHaveLength(0);
    void aAgain;

    // B's payment arrives after B's hold expired: the stock is still there, so it is sold.
    expect((await feedback(b, await card(bTab.init_point))).Status).toBe("approved");
    expect(await store.stockOf(productId)).toBe(0);
    expect(await unaccounted()).toBe(0);
  });

  it("refunds a payment that arrives after its hold expired and another buyer took the stock", async () => {
    const productId = await store.newProduct({ stock: 1 });
    const [a, b] = [await store.newShopper(), await store.newShopper()];
    const aLine = await store.buyNow(a, productId);
    await store.buyNow(b, productId);
    const aTab = await started(a);
    await t.database.db
      .update(stockHolds)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(stockHolds.productId, productId));
    expect((await feedback(b, await card((await started(b)).init_point))).Status).toBe("approved");
    expect((await feedback(a, await card(aTab.init_point))).Status).toBe("refund_needed");
    expect(await store.orderOf(aLine)).toMatchObject({ status: "cancelled", flag: "refund_needed" });
    expect(await t.app.paymentsWorker.runOnce()).toMatchObject({ refunds: 1 });
    expect(await store.orderOf(aLine)).toMatchObject({ status: "cancelled", flag: "refunded" });
    expect(await store.stockOf(productId)).toBe(0);
    expect(await unaccounted()).toBe(0);
  });

  it("never sells a retired product, even to a checkout that held it", async () => {
    const productId = await store.newProduct({ stock: 5 });
    const me = await store.newShopper();
    const line = await store.buyNow(me, productId);
    const tab = await started(me);
    const retired = await t.app.inject({
      method: "DELETE",
      url: `/api/products/${productId}`,
      headers: admin,
    });
    expect(retired.statusCode, retired.body).toBe(200);
    expect((await feedback(me, await card(tab.init_point))).Status).toBe("refund_needed");
    expect(await store.orderOf(line)).toMatchObject({ status: "cancelled" });
    expect(await store.stockOf(productId)).toBe(5);
  });
});

describe("nothing paid is left behind", () => {
  it("settles a payment whose return page was lost when the shopper pays again, and never charges it twice", async () => {
    const me = await store.newShopper();
    const first = await store.buyNow(me, await store.newProduct({ priceCents: 18698 }));
    const tab = await started(me);
    await card(tab.init_point); // approved; the tab is closed before the return page loads
    expect(await store.orderOf(first)).toMatchObject({ status: "pending" });

    const second = await store.buyNow(me, await store.newProduct({ priceCents: 7999 }));
    const next = await started(me);
    expect(await store.orderOf(first)).toMatchObject({ status: "finished" });
    const nextCheckout = await store.checkoutOf(next.id);
    expect(nextCheckout.orderIds).toEqual([second]);
    expect(nextCheckout.amountCents).toBe(7999);
  });

  it("re-checks open checkouts nobody heard of for a minute, and expires those past their hold", async () => {
    const me = await store.newShopper();
    const paidLine = await store.buyNow(me, await store.newProduct());
    const paidTab = await started(me);
    await card(paidTab.init_point);
    const other = await store.newShopper();
    const productId = await store.newProduct({ stock: 1 });
    await store.buyNow(other, productId);
    const abandoned = await started(other);

    const minutesAgo = new Date(Date.now() - 2 * 60_000);
    await t.database.db
      .update(checkouts)
      .set({ createdAt: minutesAgo })
      .where(eq(checkouts.providerCheckoutId, paidTab.id));
    await t.database.db
      .update(checkouts)
      .set({ createdAt: minutesAgo, expiresAt: minutesAgo })
      .where(eq(checkouts.providerCheckoutId, abandoned.id));
    const round = await t.app.paymentsWorker.runOnce();
    expect(round.rechecked).toBeGreaterThanOrEqual(2);
    expect(await store.orderOf(paidLine)).toMatchObject({ status: "finished" });
    expect((await store.checkoutOf(abandoned.id)).status).toBe("expired");
    const [charge] = await t.database.db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.id, abandoned.id));
    expect(charge!.status).toBe("expired");
  });
});

describe("refunds by the owner", () => {
  async function paidPurchase(priceCents = 5000) {
    const me = await store.newShopper();
    const productId = await store.newProduct({ priceCents, stock: 4 });
    const line = await store.buyNow(me, productId, 2);
    const tab = await started(me);
    expect((await feedback(me, await card(tab.init_point))).Status).toBe("approved");
    const checkout = await store.checkoutOf(tab.id);
    const [payment] = await paymentsOf(checkout.id);
    return { me, productId, line, tab, checkout, payment: payment! };
  }
  const refund = (id: number, payload: Record<string, unknown>, headers = admin) =>
    t.app.inject({ method: "POST", url: `/api/payment/admin/${id}/refund`, headers, payload });

  it("refunds part, refuses more than is left with the field, then refunds the rest and cancels", async () => {
    const { me, productId, line, tab, payment } = await paidPurchase();
    expect(payment.amountCents).toBe(10000);
    expect(await store.stockOf(productId)).toBe(2);

    const part = await refund(payment.id, { amount: "30.50", reason: "Scratched box" });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({ refunding: 30.5, cancelled: false });
    const tooMuch = await refund(payment.id, { amount: 70, reason: "Again" });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().details[0].field).toBe("amount");
    expect((await refund(payment.id, { reason: "" })).statusCode).toBe(400);

    const rest = await refund(payment.id, { reason: "Returned" });
    expect(rest.json()).toMatchObject({ refunding: 69.5, cancelled: true });
    expect(await store.orderOf(line)).toMatchObject({ status: "cancelled" });
    expect(await store.stockOf(productId)).toBe(4);
    expect((await refund(payment.id, { reason: "Once more" })).statusCode).toBe(409);

    await t.app.paymentsWorker.runOnce();
    const given = await t.database.db
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.chargeId, tab.id));
    expect(given.map((row) => row.amountCents).sort((x, y) => x - y)).toEqual([3050, 6950]);
    expect((await paymentsOf(payment.checkoutId))[0]!.refundedCents).toBe(10000);
    expect(await store.orderOf(line)).toMatchObject({ status: "cancelled", flag: "refunded" });
    const audited = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "payment.refund"));
    expect(audited.filter((row) => row.entityId === String(payment.id))).toHaveLength(2);
    const mails = await t.database.db.select().from(mailOutbox);
    expect(
      mails.filter((mail) => mail.dedupeKey?.startsWith(`order-refund:refund:${payment.id}:`)),
    ).toHaveLength(2);
    expect(await unaccounted()).toBe(0);
    void me;
  });

  it("is the admins' alone, and lists payments with those needing attention first", async () => {
    const { me, payment } = await paidPurchase();
    expect((await refund(payment.id, { reason: "x" }, me)).statusCode).toBe(403);
    expect((await refund(payment.id, { reason: "x" }, {})).statusCode).toBe(401);
    expect((await refund(2_000_000_000, { reason: "x" })).statusCode).toBe(404);
    expect((await t.app.inject({ url: "/api/payment/admin", headers: me })).statusCode).toBe(403);

    const userId = await userIdOf(me);
    const list = await t.app.inject({ url: `/api/payment/admin?userId=${userId}`, headers: admin });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({
      total: 1,
      payments: [
        {
          id: payment.id,
          provider: "sandbox",
          status: "approved",
          amount: 100,
          refunded: 0,
          currency: "usd",
          attention: false,
          orderNumbers: [expect.stringMatching(/^V-\d{6}$/)],
        },
      ],
    });
    await refund(payment.id, { amount: 1, reason: "Goodwill" });
    const attention = await t.app.inject({
      url: `/api/payment/admin?userId=${userId}&attention=true`,
      headers: admin,
    });
    expect(attention.json().payments.map((row: { id: number }) => row.id)).toEqual([payment.id]);
    await t.app.paymentsWorker.runOnce();
    const after = await t.app.inject({
      url: `/api/payment/admin?userId=${userId}&attention=true`,
      headers: admin,
    });
    expect(after.json().total).toBe(0);
    expect(
      (await t.app.inject({ url: "/api/payment/admin?attention=maybe", headers: admin })).statusCode,
    ).toBe(400);
  });

  it("keeps a refund the provider wouldn't take queued, then leaves it to the owner; erased accounts get no mail", async () => {
    const { me, payment, tab } = await paidPurchase();
    const userId = await userIdOf(me);
    const erased = await t.app.inject({
      method: "DELETE",
      url: "/api/user/admin",
      headers: admin,
      payload: { id: userId },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const before = (await t.database.db.select().from(mailOutbox)).length;
    expect((await refund(payment.id, { reason: "Account closed" })).statusCode).toBe(200);
    expect((await t.database.db.select().from(mailOutbox)).length).toBe(before);
    // The provider refuses it (its books say the charge was refunded in full elsewhere).
    await t.database.db
      .update(sandboxCharges)
      .set({ refundedCents: payment.amountCents })
      .where(eq(sandboxCharges.id, tab.id));
    const due = () =>
      t.database.db
        .update(refunds)
        .set({ nextAttemptAt: new Date(0) })
        .where(eq(refunds.paymentId, payment.id));
    await t.app.paymentsWorker.runOnce();
    const [waiting] = await t.database.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
    expect(waiting!.lastError).toBeTruthy();
    for (let attempt = 2; attempt <= 8; attempt++) {
      await due();
      await t.app.paymentsWorker.runOnce();
    }
    const [failed] = await t.database.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(failed!.status).toBe("failed");
    const listed = await t.app.inject({
      url: `/api/payment/admin?userId=${userId}&attention=true`,
      headers: admin,
    });
    expect(listed.json().payments.map((row: { id: number }) => row.id)).toEqual([payment.id]);
  });
});

describe("the holes that were found", () => {
  it("lets an admin's move and a settlement of the same orders race without a deadlock, money accounted", async () => {
    for (let round = 0; round < 6; round++) {
      const me = await store.newShopper();
      const productId = await store.newProduct({ stock: 3 });
      const line = await store.buyNow(me, productId);
      const tab = await started(me);
      const paid = await card(tab.init_point);
      const [move, settled] = await Promise.all([
        t.app.inject({
          method: "PUT",
          url: `/api/order/${line}`,
          headers: admin,
          payload: { status: "cancelled" },
        }),
        t.app.inject({ url: `/api/sandbox/feedback${paid.search}`, headers: me }),
      ]);
      expect(move.statusCode, move.body).toBe(200);
      expect(settled.statusCode, settled.body).toBe(200);
      // Whichever went first, the order ends cancelled, its unit back on the shelf and its money going back.
      expect(await store.orderOf(line)).toMatchObject({ status: "cancelled" });
      expect(await store.stockOf(productId)).toBe(3);
      await t.app.paymentsWorker.runOnce();
      expect(await unaccounted()).toBe(0);
    }
  });

  it("charges the sale that runs now, read in the transaction, not a process's cached copy", async () => {
    const productId = await store.newProduct({ priceCents: 10000 });
    // The catalogue's reference (sales, categories) is cached by this process now.
    expect((await t.app.inject({ url: `/api/products/${productId}` })).statusCode).toBe(200);
    // Another process (or SQL) starts a 25% sale on it: this process's cache doesn't know yet.
    const [sale] = await t.database.db
      .insert(sales)
      .values({ description: "Flash", percentage: 25, day: "all", productAmount: 0 })
      .returning({ id: sales.id });
    await t.database.db.insert(saleProducts).values({ saleId: sale!.id, productId });
    const me = await store.newShopper();
    const line = await store.buyNow(me, productId);
    expect(await store.orderOf(line)).toMatchObject({ unitPriceCents: 7500, lineTotalCents: 7500 });
    expect((await store.checkoutOf((await started(me)).id)).amountCents).toBe(7500);
  });

  it("refunds a payment in another currency", async () => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const tab = await started(me);
    const returned = await card(tab.init_point);
    const checkout = await store.checkoutOf(tab.id);
    const settled = await settlePayment(
      t.database.db,
      t.app.paymentProvider,
      store.paidInPesos(returned.searchParams.get("payment_id")!, checkout),
    );
    expect(settled.reply.Status).toBe("amount_mismatch");
    expect(settled.refundQueued).toBe(true);
  });

  it("takes an admin's stock edit as a change from what the form loaded, and refuses it when a sale moved it", async () => {
    const productId = await store.newProduct({ stock: 5 });
    const me = await store.newShopper();
    await store.buyNow(me, productId, 2);
    await started(me); // 2 held: the form shows 3 for sale
    const loaded = (await t.app.inject({ url: `/api/products/${productId}` })).json<{ stock: number }>();
    expect(loaded.stock).toBe(3);
    const edit = (stock: number, stockBefore: number) =>
      t.app.inject({
        method: "PUT",
        url: `/api/products/${productId}`,
        headers: admin,
        payload: {
          title: "Edited",
          name: "thing",
          price: 10,
          shippingCost: 0,
          description: "Edited. ",
          stock,
          stockBefore,
          images: [],
          categories: ["Things"],
        },
      });
    const stale = await edit(10, 4);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ stock: 3 });
    expect((await edit(10, 3)).statusCode).toBe(200);
    // The 2 held units stay held: the shelf moved by the admin's change (+7).
    expect(await store.stockOf(productId)).toBe(12);
    const [row] = await t.database.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, productId));
    expect(row!.stock).toBe(12);
  });
});

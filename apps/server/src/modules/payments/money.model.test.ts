import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { bulkOrders, checkouts, orders, payments, products, refunds, stockHolds } from "../../db/schema";
import { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from "../../integrations/payments/sandbox-webhook";

/**
 * The money invariants of issue 21 point 9, model-based: fast-check interleaves shoppers who buy, pay, pay
 * twice, approve or decline on the card page, lose their return page, see webhooks repeated and reordered,
 * see their hold expire or remove a line, buy several lines as one order, pay a chosen part of what is pending
 * or take a line back to the cart (issue 23), with the payments worker and admins moving and refunding orders —
 * 3 shoppers, 2 products with little stock. After every step, on the real app and database:
 *   available ≥ 0; available + sold + held = initial (available: the shelf less the active holds);
 *   Σ approved − Σ refunded (queued or taken) = Σ purchases paid and not cancelled;
 *   every approved payment pays its checkout or is being refunded in full.
 */
let t: TestContext;
let store: Shop;
let admin: Headers;
const BASE = "http://localhost:3000";
const PAID = ["finished", "preparing", "onDelivery", "delivered"] as const;

interface Shopper {
  headers: Headers;
  tabs: string[];
  returns: URL[];
  lines: number[];
  bulks: number[];
}

interface World {
  productIds: number[];
  initial: Map<number, number>;
  shoppers: Shopper[];
  webhooks: string[];
  /** Steps run, for the check that the runs did something. */
  steps: number;
}

type Command = fc.AsyncCommand<object, World, boolean>;

/** A step of the run: always allowed; what it does depends on the world it meets. */
function step(name: string, run: (world: World) => Promise<void>): Command {
  return {
    check: () => true,
    run: async (_model, world) => {
      await run(world);
      world.steps++;
      await expectInvariants(world);
    },
    toString: () => name,
  };
}

const pick = <T>(items: T[], index: number): T | undefined => items[index % Math.max(items.length, 1)];

const pay = (headers: Headers) =>
  t.app.inject({ method: "POST", url: "/api/sandbox/pay", headers, payload: { baseURL: BASE } });

async function startPay(shopper: Shopper) {
  const reply = await pay(shopper.headers);
  // 404 nothing pending, 409 stock held by others: both are refusals before any money moved.
  expect([200, 404, 409], reply.body).toContain(reply.statusCode);
  if (reply.statusCode === 200) shopper.tabs.push(reply.json<{ init_point: string }>().init_point);
}

const commands = [
  fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 2 })).map(([who, product, amount]) =>
    step(`buy(${who},${product},${amount})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/order",
        headers: shopper.headers,
        payload: { status: "pending", productId: pick(world.productIds, product), amount },
      });
      expect([201, 409], reply.body).toContain(reply.statusCode);
      if (reply.statusCode === 201) shopper.lines.push(reply.json<{ id: number }>().id);
    }),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(([who, product]) =>
    step(`buyAll(${who},${product})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      const added = await t.app.inject({
        method: "POST",
        url: "/api/order",
        headers: shopper.headers,
        payload: { status: "inCart", productId: pick(world.productIds, product), amount: 1 },
      });
      expect([201, 409], added.body).toContain(added.statusCode);
      const cart = await t.app.inject({ url: "/api/order?status=inCart", headers: shopper.headers });
      const lineIds =
        cart.statusCode === 200
          ? cart
              .json<{ orders: { id: number; bulkOrderId: number | null }[] }[]>()
              .flatMap((item) => item.orders.map((line) => line.id))
          : [];
      if (lineIds.length === 0) return;
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/order/bulk",
        headers: shopper.headers,
        payload: { orderIds: lineIds },
      });
      expect([201, 409], reply.body).toContain(reply.statusCode);
      if (reply.statusCode !== 201) return;
      shopper.lines.push(...lineIds);
      shopper.bulks.push(reply.json<{ id: number }>().id);
    }),
  ),
  fc.nat().map((who) => step(`pay(${who})`, async (world) => startPay(pick(world.shoppers, who)!))),
  fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([who, index, bulk]) =>
    step(`payChosen(${who},${index},${bulk ? "bulk" : "line"})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      const id = pick(bulk ? shopper.bulks : shopper.lines, index);
      if (id === undefined) return;
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/sandbox/pay",
        headers: shopper.headers,
        payload: { baseURL: BASE, ...(bulk ? { bulkOrderIds: [id] } : { orderIds: [id] }) },
      });
      // 400: not (or no longer) a pending order of theirs; refused before any money moved.
      expect([200, 400, 404, 409], reply.body).toContain(reply.statusCode);
      if (reply.statusCode === 200) shopper.tabs.push(reply.json<{ init_point: string }>().init_point);
    }),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(([who, index]) =>
    step(`backToCart(${who},${index})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      const line = pick(shopper.lines, index);
      if (line === undefined) return;
      const reply = await t.app.inject({
        method: "PUT",
        url: `/api/order/${line}`,
        headers: shopper.headers,
        payload: { status: "inCart" },
      });
      expect([200, 400, 404, 409], reply.body).toContain(reply.statusCode);
    }),
  ),
  // A line taken back to the cart while its payment's return page settles it, at the same moment: the
  // payment pays what it was for or is refunded, whichever commits first.
  fc.tuple(fc.nat(), fc.nat(), fc.nat()).map(([who, index, back]) =>
    step(`backToCartWhileReturning(${who},${index},${back})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      const line = pick(shopper.lines, index);
      const returned = pick(shopper.returns, back);
      if (line === undefined || !returned) return;
      const [moved, settled] = await Promise.all([
        t.app.inject({
          method: "PUT",
          url: `/api/order/${line}`,
          headers: shopper.headers,
          payload: { status: "inCart" },
        }),
        t.app.inject({ url: `/api/sandbox/feedback${returned.search}`, headers: shopper.headers }),
      ]);
      expect([200, 400, 404, 409], moved.body).toContain(moved.statusCode);
      expect(settled.statusCode, settled.body).toBe(200);
    }),
  ),
  fc.nat().map((who) =>
    step(`doublePay(${who})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      await Promise.all([startPay(shopper), startPay(shopper)]);
    }),
  ),
  fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([who, tab, approve]) =>
    step(`card(${who},${tab},${approve ? "4242" : "0002"})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      const initPoint = pick(shopper.tabs, tab);
      if (!initPoint) return;
      const reply = await t.app.inject({
        method: "POST",
        url: new URL(initPoint).pathname,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({
          number: approve ? "4242424242424242" : "4000000000000002",
          expiry: "12/40",
          cvc: "123",
        }).toString(),
      });
      // A closed or expired charge refuses the card: nothing is charged.
      if (reply.statusCode !== 303) return;
      const returned = new URL(reply.headers.location as string);
      const paymentId = returned.searchParams.get("payment_id");
      if (!paymentId) return;
      shopper.returns.push(returned);
      world.webhooks.push(paymentId);
    }),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(([who, index]) =>
    step(`return(${who},${index})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      const returned = pick(shopper.returns, index);
      if (!returned) return;
      const reply = await t.app.inject({
        url: `/api/sandbox/feedback${returned.search}`,
        headers: shopper.headers,
      });
      expect(reply.statusCode, reply.body).toBe(200);
    }),
  ),
  fc.nat().map((index) =>
    step(`webhook(${index})`, async (world) => {
      const paymentId = pick(world.webhooks, index);
      if (!paymentId) return;
      // The same event id now and then: a repeated notification changes nothing.
      const body = JSON.stringify({
        id: `evt_${index % 3 === 0 ? paymentId : randomBytes(6).toString("hex")}`,
        type: "payment.updated",
        data: { payment_id: paymentId },
      });
      const secret = (t.config.payments as { webhookSecret: string }).webhookSecret;
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/sandbox/webhook",
        headers: {
          "content-type": "application/json",
          [SANDBOX_SIGNATURE_HEADER]: signSandboxEvent(secret, body),
        },
        payload: body,
      });
      expect(reply.statusCode, reply.body).toBe(200);
    }),
  ),
  fc.nat().map((who) =>
    step(`expireHold(${who})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      const userId = await userIdOf(shopper.headers);
      const past = new Date(Date.now() - 1000);
      const mine = t.database.db
        .select({ id: checkouts.id })
        .from(checkouts)
        .where(eq(checkouts.userId, userId));
      await t.database.db.update(checkouts).set({ expiresAt: past }).where(inArray(checkouts.id, mine));
      await t.database.db
        .update(stockHolds)
        .set({ expiresAt: past })
        .where(inArray(stockHolds.checkoutId, mine));
    }),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(([who, index]) =>
    step(`removeLine(${who},${index})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      const line = pick(shopper.lines, index);
      if (line === undefined) return;
      const reply = await t.app.inject({
        method: "DELETE",
        url: `/api/order/${line}`,
        headers: shopper.headers,
      });
      expect([200, 404], reply.body).toContain(reply.statusCode);
    }),
  ),
  fc.constant(
    step("worker", async () => {
      // A minute later: the worker re-checks open checkouts and sends the refunds due.
      const minuteAgo = new Date(Date.now() - 2 * 60_000);
      await t.database.db
        .update(checkouts)
        .set({ createdAt: minuteAgo, checkedAt: null })
        .where(eq(checkouts.status, "open"));
      await t.database.db
        .update(refunds)
        .set({ nextAttemptAt: new Date(0) })
        .where(eq(refunds.status, "pending"));
      await t.app.paymentsWorker.runOnce();
    }),
  ),
  fc
    .tuple(fc.nat(), fc.nat(), fc.constantFrom("cancelled", "preparing", "finished"))
    .map(([who, index, status]) =>
      step(`adminMove(${who},${index},${status})`, async (world) => {
        const line = pick(pick(world.shoppers, who)!.lines, index);
        if (line === undefined) return;
        const reply = await t.app.inject({
          method: "PUT",
          url: `/api/order/${line}`,
          headers: admin,
          payload: { status },
        });
        expect([200, 404, 409], reply.body).toContain(reply.statusCode);
      }),
    ),
  fc.nat().map((index) =>
    step(`adminRefund(${index})`, async (world) => {
      const approved = await t.database.db
        .select({ id: payments.id })
        .from(payments)
        .innerJoin(checkouts, eq(checkouts.id, payments.checkoutId))
        .where(and(eq(payments.status, "approved"), inArray(checkouts.userId, await userIds(world))));
      const payment = pick(approved, index);
      if (!payment) return;
      const reply = await t.app.inject({
        method: "POST",
        url: `/api/payment/admin/${payment.id}/refund`,
        headers: admin,
        payload: { reason: "model" },
      });
      expect([200, 409], reply.body).toContain(reply.statusCode);
    }),
  ),
];

const ids = new Map<string, number>();
async function userIdOf(headers: Headers) {
  const key = headers.authorization!;
  if (!ids.has(key))
    ids.set(key, (await t.app.inject({ url: "/api/user", headers })).json<{ id: number }>().id);
  return ids.get(key)!;
}
const userIds = (world: World) => Promise.all(world.shoppers.map((shopper) => userIdOf(shopper.headers)));

async function expectInvariants(world: World) {
  const db = t.database.db;
  const users = await userIds(world);
  for (const productId of world.productIds) {
    const [row] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
    const [sold] = await db
      .select({ units: sql<number>`coalesce(sum(${orders.amount}), 0)::int` })
      .from(orders)
      .where(and(eq(orders.productId, productId), inArray(orders.status, [...PAID])));
    const [held] = await db
      .select({ units: sql<number>`coalesce(sum(${stockHolds.units}), 0)::int` })
      .from(stockHolds)
      .where(and(eq(stockHolds.productId, productId), sql`${stockHolds.expiresAt} > now()`));
    // The shelf (`stock`) still holds the held units: what others can take is the shelf less them.
    const available = row!.stock - Number(held!.units);
    expect(available, `product ${productId}: held beyond the shelf`).toBeGreaterThanOrEqual(0);
    expect(available + Number(sold!.units) + Number(held!.units), `product ${productId}`).toBe(
      world.initial.get(productId),
    );
  }
  const approved = await db
    .select({
      id: payments.id,
      amountCents: payments.amountCents,
      paysItsCheckout: sql<boolean>`${checkouts.status} = 'paid' and ${checkouts.providerPaymentId} = ${payments.providerPaymentId}`,
      refundedCents: sql<number>`(select coalesce(sum(r.amount_cents), 0)::int from ${refunds} r
        where r.payment_id = ${payments.id} and r.status in ('pending', 'succeeded'))`,
    })
    .from(payments)
    .innerJoin(checkouts, eq(checkouts.id, payments.checkoutId))
    .where(and(eq(payments.status, "approved"), inArray(checkouts.userId, users)));
  for (const payment of approved) {
    if (!payment.paysItsCheckout)
      expect(Number(payment.refundedCents), `payment ${payment.id} is neither delivered nor refunded`).toBe(
        payment.amountCents,
      );
    expect(Number(payment.refundedCents)).toBeLessThanOrEqual(payment.amountCents);
  }
  const kept = approved.reduce(
    (sum, payment) => sum + payment.amountCents - Number(payment.refundedCents),
    0,
  );
  const [singles] = await db
    .select({
      cents: sql<number>`coalesce(sum(${orders.lineTotalCents} + ${orders.shippingCostCents}), 0)::int`,
    })
    .from(orders)
    .where(
      and(
        inArray(orders.userId, users),
        inArray(orders.status, [...PAID]),
        sql`${orders.bulkOrderId} is null`,
      ),
    );
  const [bulks] = await db
    .select({
      cents: sql<number>`coalesce(sum(${bulkOrders.combinedPriceCents} + ${bulkOrders.combinedShippingCostCents}), 0)::int`,
    })
    .from(bulkOrders)
    .where(and(inArray(bulkOrders.userId, users), inArray(bulkOrders.status, [...PAID])));
  expect(kept, "money kept = purchases delivered").toBe(Number(singles!.cents) + Number(bulks!.cents));
}

beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
  admin = await t.bearer(1);
});
afterAll(() => t.close());

describe("money that adds up, whatever shoppers, providers and admins do in between", () => {
  it("keeps stock, holds, payments and refunds in balance after every step", async () => {
    let totalSteps = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: "max" }), async (steps) => {
        const productIds = [
          await store.newProduct({ stock: 2 }),
          await store.newProduct({ stock: 1, priceCents: 2500 }),
        ];
        const world: World = {
          productIds,
          initial: new Map([
            [productIds[0]!, 2],
            [productIds[1]!, 1],
          ]),
          shoppers: await Promise.all(
            Array.from({ length: 3 }, async () => ({
              headers: await store.newShopper(),
              tabs: [],
              returns: [],
              lines: [],
              bulks: [],
            })),
          ),
          webhooks: [],
          steps: 0,
        };
        await fc.asyncModelRun(() => ({ model: {}, real: world }), steps);
        totalSteps += world.steps;
      }),
      {
        numRuns: Number(process.env.MONEY_MODEL_RUNS ?? 12),
        seed: Number(process.env.MONEY_MODEL_SEED ?? 21),
      },
    );
    // The runs interleaved real work, not a handful of steps.
    expect(totalSteps).toBeGreaterThan(100);
  }, 300_000);
});

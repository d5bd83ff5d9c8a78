import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import {
  bulkOrders,
  checkouts,
  orders,
  payments,
  productVariants,
  products,
  refunds,
  stockHolds,
} from "../../db/schema";
import type { ProviderCheckout } from "../../integrations/payments/provider";
import { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from "../../integrations/payments/sandbox-webhook";

/**
 * The money invariants, model-based: fast-check interleaves shoppers who buy, pay, pay
 * twice, approve or decline on the card page, lose their return page, see webhooks repeated and reordered,
 * see their hold expire or remove a line, buy several lines as one order, pay a chosen part of what is pending
 * or take a line back to the cart, die between saving a checkout and the provider's answer, or type a
 * card in an old tab while a newer Pay replaces its checkout, with the payments worker and admins
 * moving and refunding orders — 3 shoppers, a product sold in two variants and one sold one way, with little
 * stock. After every step, on the real app and database:
 *   per variant, available ≥ 0; available + sold + held = initial (available: the shelf less the active holds);
 *   a product's stock is the sum of its variants';
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

/** What a shopper can buy: a variant of a product. `named`: the buy names the variant (a SPEC client doesn't). */
interface Sellable {
  productId: number;
  variantId: number;
  named: boolean;
}

interface World {
  sellables: Sellable[];
  /** Units of each variant at the start. */
  initial: Map<number, number>;
  shoppers: Shopper[];
  webhooks: string[];
  /** Pays killed while the provider was asked for their checkout: their requests never answer. */
  dead: { release: () => void; reply: Promise<unknown> }[];
  /** Steps run, for the check that the runs did something. */
  steps: number;
  /** Old tabs' cards typed after a newer Pay replaced their checkout (and refused). */
  refusedOldTabs: number;
}

/**
 * Faults a step arms in the provider the app calls (the sandbox stands for a payment company here): its next
 * checkout hangs, as the call of a process killed mid-call never comes back; a replaced checkout is closed only
 * after `beforeClose` ran.
 */
let hangNextCheckout: (() => Promise<ProviderCheckout>) | undefined;
let beforeClose: ((providerCheckoutId: string) => Promise<void>) | undefined;

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
  payAnswered(shopper, await pay(shopper.headers));
}

/** A Pay of one chosen line or bulk order. 400: not (or no longer) a pending order of theirs. */
async function payChosen(shopper: Shopper, choice: { orderIds: number[] } | { bulkOrderIds: number[] }) {
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/sandbox/pay",
    headers: shopper.headers,
    payload: { baseURL: BASE, ...choice },
  });
  if (reply.statusCode !== 400) payAnswered(shopper, reply);
}

function payAnswered(shopper: Shopper, reply: Awaited<ReturnType<typeof pay>>) {
  // 404 nothing pending, 409 stock held by others: both are refusals before any money moved.
  expect([200, 404, 409], reply.body).toContain(reply.statusCode);
  // Never kept waiting by a start that died: only a live one is waited for, and none outlasts a step here.
  expect(reply.body).not.toContain("being started");
  if (reply.statusCode === 200) shopper.tabs.push(reply.json<{ init_point: string }>().init_point);
}

/** The store's holds of the shopper's checkouts end (the provider's pages may stay open longer: Stripe's do). */
async function expireHold(shopper: Shopper) {
  const userId = await userIdOf(shopper.headers);
  const past = new Date(Date.now() - 1000);
  const mine = t.database.db.select({ id: checkouts.id }).from(checkouts).where(eq(checkouts.userId, userId));
  await t.database.db.update(checkouts).set({ expiresAt: past }).where(inArray(checkouts.id, mine));
  await t.database.db.update(stockHolds).set({ expiresAt: past }).where(inArray(stockHolds.checkoutId, mine));
}

/** The shopper types a card on a card page; a payment it made is the shopper's to return with. */
async function submitCard(world: World, shopper: Shopper, initPoint: string, approve: boolean) {
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
  // A closed, expired or replaced charge refuses the card: nothing is charged.
  const paymentId =
    reply.statusCode === 303 && new URL(reply.headers.location as string).searchParams.get("payment_id");
  if (paymentId) {
    shopper.returns.push(new URL(reply.headers.location as string));
    world.webhooks.push(paymentId);
  }
  return reply;
}

const orderOf = ({ productId, variantId, named }: Sellable) =>
  named ? { productId, variantId } : { productId };

const commands = [
  fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 2 })).map(([who, product, amount]) =>
    step(`buy(${who},${product},${amount})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/order",
        headers: shopper.headers,
        payload: { status: "pending", ...orderOf(pick(world.sellables, product)!), amount },
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
        payload: { status: "inCart", ...orderOf(pick(world.sellables, product)!), amount: 1 },
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
      if (id !== undefined) await payChosen(shopper, bulk ? { bulkOrderIds: [id] } : { orderIds: [id] });
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
      if (initPoint) await submitCard(world, shopper, initPoint, approve);
    }),
  ),
  // The shopper pays everything, then presses Pay in another tab, where a newer checkout replaces the first
  // (its hold ended, or they pay one line only), and types a card in the first tab meanwhile: at any moment of
  // that Pay, or just after it replaced the first checkout and before the provider closed it, where the card
  // must be refused.
  fc
    .tuple(fc.nat(), fc.option(fc.nat(), { nil: undefined }), fc.boolean(), fc.boolean())
    .map(([who, line, approve, whileClosing]) =>
      step(
        `oldTabDuringPay(${who},${line ?? "holdEnded"},${approve ? "4242" : "0002"}${whileClosing ? ",whileClosing" : ""})`,
        async (world) => {
          const shopper = pick(world.shoppers, who)!;
          await startPay(shopper);
          const oldTab = shopper.tabs.at(-1);
          if (!oldTab) return;
          const chosen = line === undefined ? undefined : pick(shopper.lines, line);
          if (chosen === undefined) await expireHold(shopper);
          const newerPay = () =>
            chosen === undefined ? startPay(shopper) : payChosen(shopper, { orderIds: [chosen] });
          if (!whileClosing) {
            await Promise.all([newerPay(), submitCard(world, shopper, oldTab, approve)]);
            return;
          }
          const chargeId = new URL(oldTab).pathname.split("/").pop();
          let typed: Awaited<ReturnType<typeof submitCard>> | undefined;
          beforeClose = async (id) => {
            if (id === chargeId) typed ??= await submitCard(world, shopper, oldTab, approve);
          };
          try {
            await newerPay();
          } finally {
            beforeClose = undefined;
          }
          if (!typed) return;
          expect(typed.statusCode, "an old tab's card after a newer Pay replaced its checkout").toBe(410);
          world.refusedOldTabs++;
        },
      ),
    ),
  // kill -9 while the provider is asked for the checkout just saved: the request never answers, nothing
  // renews the start's lease and it runs out; the shopper may press Pay again at once.
  fc.tuple(fc.nat(), fc.boolean()).map(([who, again]) =>
    step(`crashBeforeProvider(${who}${again ? ",payAgain" : ""})`, async (world) => {
      const shopper = pick(world.shoppers, who)!;
      let asked!: () => void;
      const reached = new Promise<"asked">((resolve) => (asked = () => resolve("asked")));
      let release!: () => void;
      hangNextCheckout = () => {
        hangNextCheckout = undefined;
        asked();
        return new Promise<never>((_, reject) => (release = () => reject(new Error("killed"))));
      };
      const reply = pay(shopper.headers);
      const answer = await Promise.race([reached, reply]);
      hangNextCheckout = undefined;
      // Refused or reused before any provider call: nothing to kill.
      if (answer !== "asked") return payAnswered(shopper, answer);
      world.dead.push({ release, reply });
      await t.database.db
        .update(checkouts)
        .set({ startingUntil: new Date(Date.now() - 1000) })
        .where(
          and(
            eq(checkouts.userId, await userIdOf(shopper.headers)),
            eq(checkouts.status, "open"),
            isNull(checkouts.providerCheckoutId),
          ),
        );
      if (again) await startPay(shopper);
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
        id: `evt_${index % 3 === 0 ? paymentId.replace(/[^A-Za-z0-9]/g, "") : randomBytes(6).toString("hex")}`,
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
  fc.nat().map((who) => step(`expireHold(${who})`, async (world) => expireHold(pick(world.shoppers, who)!))),
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
  for (const { variantId } of world.sellables) {
    const [row] = await db
      .select({ stock: productVariants.stock })
      .from(productVariants)
      .where(eq(productVariants.id, variantId));
    const [sold] = await db
      .select({ units: sql<number>`coalesce(sum(${orders.amount}), 0)::int` })
      .from(orders)
      .where(and(eq(orders.variantId, variantId), inArray(orders.status, [...PAID])));
    const [held] = await db
      .select({ units: sql<number>`coalesce(sum(${stockHolds.units}), 0)::int` })
      .from(stockHolds)
      .where(and(eq(stockHolds.variantId, variantId), sql`${stockHolds.expiresAt} > now()`));
    // The shelf (`stock`) still holds the held units: what others can take is the shelf less them.
    const available = row!.stock - Number(held!.units);
    expect(available, `variant ${variantId}: held beyond the shelf`).toBeGreaterThanOrEqual(0);
    expect(available + Number(sold!.units) + Number(held!.units), `variant ${variantId}`).toBe(
      world.initial.get(variantId),
    );
  }
  for (const productId of new Set(world.sellables.map((sellable) => sellable.productId))) {
    const [row] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
    const [live] = await db
      .select({ stock: sql<number>`coalesce(sum(${productVariants.stock}), 0)::int` })
      .from(productVariants)
      .where(and(eq(productVariants.productId, productId), isNull(productVariants.retiredAt)));
    expect(row!.stock, `product ${productId}: the sum of its variants`).toBe(Number(live!.stock));
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
  const provider = t.app.paymentProvider;
  const { createCheckout, closeCheckout } = provider;
  provider.createCheckout = (request) => (hangNextCheckout ? hangNextCheckout() : createCheckout(request));
  provider.closeCheckout = async (id) => {
    await beforeClose?.(id);
    return closeCheckout(id);
  };
});
afterAll(() => t.close());

describe("money that adds up, whatever shoppers, providers and admins do in between", () => {
  it("keeps stock, holds, payments and refunds in balance after every step", async () => {
    let totalSteps = 0;
    let refusedOldTabs = 0;
    let killed = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: "max" }), async (steps) => {
        const colours = await store.newProductWithVariants(
          [{ name: "Colour", values: ["Black", "White"] }],
          [
            { options: { Colour: "Black" }, priceCents: 1000, stock: 2 },
            { options: { Colour: "White" }, priceCents: 1300, stock: 1 },
          ],
        );
        const single = await store.newProduct({ stock: 1, priceCents: 2500 });
        const sellables: Sellable[] = [
          { productId: colours.productId, variantId: colours.variantIds[0]!, named: true },
          { productId: colours.productId, variantId: colours.variantIds[1]!, named: true },
          { productId: single, variantId: await store.variantOf(single), named: false },
        ];
        const world: World = {
          sellables,
          initial: new Map([
            [sellables[0]!.variantId, 2],
            [sellables[1]!.variantId, 1],
            [sellables[2]!.variantId, 1],
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
          dead: [],
          steps: 0,
          refusedOldTabs: 0,
        };
        try {
          await fc.asyncModelRun(() => ({ model: {}, real: world }), steps);
        } finally {
          // The run is over: the killed requests' calls fail, and they answer (their handlers end).
          for (const dead of world.dead) dead.release();
          await Promise.allSettled(world.dead.map((dead) => dead.reply));
        }
        totalSteps += world.steps;
        refusedOldTabs += world.refusedOldTabs;
        killed += world.dead.length;
      }),
      {
        numRuns: Number(process.env.MONEY_MODEL_RUNS ?? 12),
        seed: Number(process.env.MONEY_MODEL_SEED ?? 21),
      },
    );
    // The runs interleaved real work, not a handful of steps.
    expect(totalSteps).toBeGreaterThan(100);
    // The new faults happened, not only their steps: Pays killed mid-call, old tabs' cards in the window.
    expect(killed).toBeGreaterThan(0);
    expect(refusedOldTabs).toBeGreaterThan(0);
  }, 300_000);
});

import { setTimeout as sleep } from "node:timers/promises";
import { and, asc, eq, getTableColumns, gt, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { checkoutItems, checkoutTotals, providerItems, type PendingLine } from "@voltio/domain/checkout";
import { toDollars } from "@voltio/domain/money";
import { checkoutIdOf, orderNumber } from "@voltio/domain/order-status";
import type { OrderSummary, PayBody } from "@voltio/domain/payments";
import type { ProductOption, VariantOptions } from "@voltio/domain/variants";
import type { Db } from "../../db/client";
import {
  bulkOrders,
  checkouts,
  directions,
  orders,
  productVariants,
  products,
  users,
  type ShippingAddress,
} from "../../db/schema";
import { Conflict, InvalidInput, NotFound } from "../../errors";
import type { PaymentProvider } from "../../integrations/payments/provider";
import type { StoreWord } from "../../integrations/payments/sandbox-page";
import { holdStock, releaseHolds, unitsPerVariant } from "../inventory/stock";
import { variantTitle, variantTitleColumns } from "../inventory/variants";
import { assertMove } from "./moves";

/**
 * Starting a payment (docs/product-rules.md §11). A checkout covers what
 * the shopper chose to pay (`orderIds`, `bulkOrderIds`; everything pending when they name nothing, as SPEC's
 * client does), at the prices snapshotted when the lines became pending, and holds its
 * units for STOCK_HOLD_SECONDS: a buyer who can't have every unit is told before paying. A shopper has one
 * open checkout at a time, whatever the concurrency (a unique partial index, and the decision taken under a
 * per-shopper lock).
 */

/**
 * Namespace of the per-shopper advisory lock that serialises a shopper's checkouts: making one (and so
 * replacing the last), settling a payment of one, and the sandbox's card page taking a card for one.
 */
const CHECKOUT_LOCK = 21;
/** How long a concurrent Pay waits for the checkout another request of the same shopper is creating. */
const WAIT_FOR_PROVIDER_MS = 25_000;
/**
 * How long a checkout is "being started" without a word from the request asking the provider for its session,
 * which renews it every third of that while it lives: a request that died (kill -9 between the save and the
 * provider's answer) leaves a lease that runs out, and the next Pay replaces its checkout then, not when the
 * hold ends.
 */
export const START_LEASE_SECONDS = 10;

/** Takes the shopper's lock for the rest of the transaction `tx`. */
async function lockShopper(tx: Db, userId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${CHECKOUT_LOCK}, ${userId})`);
}

/**
 * The checkout a payment (or the sandbox's card) is for, read under its shopper's lock in `tx`, with
 * `current`: no newer checkout of theirs exists (one that would have replaced it had it been open). Null
 * for an unknown checkout.
 */
export async function lockCheckout(tx: Db, checkoutId: number, provider: string, userId?: number) {
  const mine = and(
    eq(checkouts.id, checkoutId),
    eq(checkouts.provider, provider),
    userId === undefined ? undefined : eq(checkouts.userId, userId),
  );
  const [owner] = await tx.select({ userId: checkouts.userId }).from(checkouts).where(mine);
  if (!owner) return null;
  await lockShopper(tx, owner.userId);
  const [checkout] = await tx.select().from(checkouts).where(mine).for("update");
  if (!checkout) return null;
  const [newer] = await tx
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(and(eq(checkouts.userId, checkout.userId), gt(checkouts.id, checkout.id)))
    .limit(1);
  return { ...checkout, current: !newer };
}

/**
 * The store's word to the sandbox's card page (sandbox-page.ts), under the shopper's lock in `tx`: a card may
 * pay the checkout `reference` only while it is open; one a newer Pay replaced tells the shopper so. The
 * store has no word on a charge that isn't one of its checkouts.
 */
export async function checkoutPayable(tx: Db, reference: string, provider: string): Promise<StoreWord> {
  const checkoutId = checkoutIdOf(reference);
  const checkout = checkoutId === null ? null : await lockCheckout(tx, checkoutId, provider);
  if (!checkout) return "payable";
  if (checkout.status === "replaced" || !checkout.current) return "replaced";
  return checkout.status === "open" ? "payable" : "closed";
}

/** An open checkout whose start died: no session, and the lease of the request asking for one ran out. */
export const startDied: SQL = and(
  isNull(checkouts.providerCheckoutId),
  or(isNull(checkouts.startingUntil), lte(checkouts.startingUntil, sql`now()`)),
)!;

/** A line's price snapshot, taken when it became pending: what the checkout charges for it. */
export const snapshotColumns = {
  ...variantTitleColumns,
  amount: orders.amount,
  unitPriceCents: orders.unitPriceCents,
  lineTotalCents: orders.lineTotalCents,
  shippingCostCents: orders.shippingCostCents,
  salePercentage: orders.salePercentage,
  discountedUnits: orders.discountedUnits,
};

/** A pending line's snapshot columns as the checkout rules read them. */
export const pendingLine = (row: {
  title: string;
  productOptions: ProductOption[];
  variantOptions: VariantOptions;
  amount: number;
  unitPriceCents: number | null;
  lineTotalCents: number | null;
  shippingCostCents: number | null;
  salePercentage: number | null;
  discountedUnits: number | null;
}): PendingLine => ({
  title: variantTitle(row),
  amount: row.amount,
  unitPriceCents: row.unitPriceCents ?? 0,
  lineTotalCents: row.lineTotalCents ?? 0,
  shippingCents: row.shippingCostCents ?? 0,
  salePercentage: row.salePercentage,
  discountedUnits: row.discountedUnits ?? 0,
});

/**
 * The caller's pending lines not in a bulk order, and the lines of their pending bulk orders: what a checkout
 * charges. A line flagged for the money it already took is never charged again.
 */
async function pendingOf(db: Db, userId: number) {
  const lines = await db
    .select({
      id: orders.id,
      bulkOrderId: orders.bulkOrderId,
      productId: orders.productId,
      variantId: orders.variantId,
      ...snapshotColumns,
    })
    .from(orders)
    .innerJoin(products, eq(products.id, orders.productId))
    .innerJoin(productVariants, eq(productVariants.id, orders.variantId))
    .leftJoin(bulkOrders, eq(bulkOrders.id, orders.bulkOrderId))
    .where(
      and(
        eq(orders.userId, userId),
        isNull(orders.flag),
        or(
          and(isNull(orders.bulkOrderId), eq(orders.status, "pending")),
          and(eq(bulkOrders.status, "pending"), isNull(bulkOrders.flag)),
        ),
      ),
    )
    .orderBy(asc(orders.id));
  return lines.map((line) => ({
    id: line.id,
    bulkOrderId: line.bulkOrderId,
    productId: line.productId,
    variantId: line.variantId,
    ...pendingLine(line),
  }));
}

type Pending = Awaited<ReturnType<typeof pendingOf>>;

/**
 * The pending lines a Pay chose (ADR 0015): a "Buy now" pays that line only, unless the shopper added the
 * rest. Each id must name one of the caller's pending lines bought alone, or pending bulk orders; anything
 * else refuses the whole Pay, naming the id, before a checkout is touched.
 */
function chosen(pending: Pending, body: Pick<PayBody, "orderIds" | "bulkOrderIds">): Pending {
  if (body.orderIds === undefined && body.bulkOrderIds === undefined) return pending;
  const orderIds = new Set(body.orderIds ?? []);
  const bulkOrderIds = new Set(body.bulkOrderIds ?? []);
  if (orderIds.size + bulkOrderIds.size === 0)
    throw new InvalidInput("orderIds", "choose at least one pending order or bulk order to pay");
  for (const id of orderIds) {
    const line = pending.find((candidate) => candidate.id === id);
    if (!line) throw new InvalidInput("orderIds", `order ${id} is not a pending order of yours`);
    if (line.bulkOrderId !== null)
      throw new InvalidInput(
        "orderIds",
        `order ${id} is part of bulk order ${line.bulkOrderId}: choose it in bulkOrderIds`,
      );
  }
  for (const id of bulkOrderIds)
    if (!pending.some((line) => line.bulkOrderId === id))
      throw new InvalidInput("bulkOrderIds", `bulk order ${id} is not a pending bulk order of yours`);
  return pending.filter((line) =>
    line.bulkOrderId === null ? orderIds.has(line.id) : bulkOrderIds.has(line.bulkOrderId),
  );
}

const addressOf = (row: typeof directions.$inferSelect): ShippingAddress => ({
  city: row.city,
  street: row.street,
  streetNumber: row.streetNumber,
  floor: row.floor,
  unit: row.unit,
  postalCode: row.postalCode,
});

/** The order lines a checkout pays: its single lines and the lines of its bulk orders. */
export const coveredBy = (checkout: { orderIds: number[]; bulkOrderIds: number[] }) =>
  or(
    checkout.orderIds.length ? inArray(orders.id, checkout.orderIds) : sql`false`,
    checkout.bulkOrderIds.length ? inArray(orders.bulkOrderId, checkout.bulkOrderIds) : sql`false`,
  );

export interface CheckoutDeps {
  db: Db;
  provider: PaymentProvider;
  /** STOCK_HOLD_SECONDS: how long a checkout keeps its units from other shoppers. */
  holdSeconds: number;
  /** Settles what the shopper's open checkout was paid before a new one is made (settlement.ts). */
  recheckOpen?: (userId: number) => Promise<void>;
  /** A checkout that can't be paid any more is closed at the provider; a failure there is only logged. */
  onCloseFailure?: (error: unknown) => void;
  /** START_LEASE_SECONDS, shorter in tests of a provider slower than the lease. */
  leaseSeconds?: number;
}

type Decision =
  | { kind: "reuse"; checkoutId: number; providerCheckoutId: string; initPoint: string }
  | { kind: "wait"; checkoutId: number }
  | {
      kind: "create";
      checkoutId: number;
      expiresAt: Date;
      lines: Pending;
      amountCents: number;
      payerEmail: string;
    };

type Started = { id: string; init_point: string };

const same = (a: number[], b: number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * POST /{provider}/pay: the charge for what the caller chose of what they have pending (everything pending
 * when they name nothing), built from the database. The same
 * pending orders, total and return address reuse the open checkout while its hold lasts; anything else closes
 * it (here and at the provider) and opens another.
 */
export async function startCheckout(
  deps: CheckoutDeps,
  userId: number,
  body: PayBody,
  /** The configured origins the shopper may come back to (config.returnOrigins). */
  storeOrigins: string[],
): Promise<Started> {
  const base = new URL(body.baseURL);
  if (!storeOrigins.includes(base.origin))
    throw new InvalidInput(
      "baseURL",
      "must be one of the store's own addresses (PUBLIC_URL or RETURN_ORIGINS)",
    );
  const baseUrl = `${base.origin}${base.pathname.replace(/\/+$/, "")}`;

  // A payment whose return was lost is settled first, so its orders are never charged again.
  await deps.recheckOpen?.(userId);

  const deadline = Date.now() + WAIT_FOR_PROVIDER_MS;
  for (;;) {
    const decision = await decide(deps, userId, body, baseUrl);
    if (decision.kind === "reuse") return { id: decision.providerCheckoutId, init_point: decision.initPoint };
    if (decision.kind === "create") return create(deps, decision, baseUrl);
    const started = await waitForProvider(deps.db, decision.checkoutId, deadline);
    // Null: the request starting it died meanwhile; deciding again replaces its checkout.
    if (started) return started;
  }
}

/** Under the shopper's lock: reuse the open checkout, wait for the one being started, or make a new one. */
async function decide(deps: CheckoutDeps, userId: number, body: PayBody, baseUrl: string) {
  const { db, provider } = deps;
  const closed: string[] = [];
  const decision = await db.transaction(async (tx): Promise<Decision> => {
    await lockShopper(tx, userId);
    // Lock order (inventory/stock.ts): the checkout first, products last (holdStock).
    const open = await lockOpenCheckout(tx, userId);
    const charge = await chargeOf(tx, userId, body, baseUrl);
    const kept = keepOpen(open, charge);
    if (kept) return kept;
    if (open) {
      const replaced = await replaceOpen(tx, open);
      if (replaced) closed.push(replaced);
    }
    return openCheckout(tx, deps, userId, charge);
  });
  // The provider is called outside any transaction: a slow provider holds no rows.
  await Promise.all(
    closed.map((id) => provider.closeCheckout(id).catch((error: unknown) => deps.onCloseFailure?.(error))),
  );
  return decision;
}

/** The shopper's open checkout, locked, and whether a request is asking the provider for its session now. */
async function lockOpenCheckout(tx: Db, userId: number) {
  const [open] = await tx
    .select({
      ...getTableColumns(checkouts),
      starting: sql<boolean>`coalesce(${checkouts.startingUntil} > now(), false)`,
    })
    .from(checkouts)
    .where(and(eq(checkouts.userId, userId), eq(checkouts.status, "open")))
    .for("update");
  return open;
}

type OpenCheckout = NonNullable<Awaited<ReturnType<typeof lockOpenCheckout>>>;

/** What this Pay charges: the chosen pending lines, their total, and where they ship. */
async function chargeOf(tx: Db, userId: number, body: PayBody, baseUrl: string) {
  const pending = await pendingOf(tx, userId);
  if (pending.length === 0) throw new NotFound("Nothing to pay: there are no pending orders");
  const lines = chosen(pending, body);
  const [direction] = await tx
    .select()
    .from(directions)
    .where(
      and(
        eq(directions.userId, userId),
        body.directionId === undefined ? undefined : eq(directions.id, body.directionId),
      ),
    )
    .orderBy(asc(directions.id))
    .limit(1);
  if (!direction)
    throw body.directionId === undefined
      ? new InvalidInput("directionId", "You need to have an address to make the purchase!")
      : new NotFound("Address Not Found");

  const orderIds = lines.filter((line) => line.bulkOrderId === null).map((line) => line.id);
  const bulkOrderIds = [
    ...new Set(lines.flatMap((line) => (line.bulkOrderId === null ? [] : [line.bulkOrderId]))),
  ];
  const { totalCents: amountCents } = checkoutTotals(lines);
  return { lines, orderIds, bulkOrderIds, amountCents, shippingAddress: addressOf(direction), baseUrl };
}

type Charge = Awaited<ReturnType<typeof chargeOf>>;

/**
 * The open checkout still charges this, while its hold lasts: reused once it has a session, waited for while
 * another request asks the provider for one; null when it must be replaced.
 */
function keepOpen(open: OpenCheckout | undefined, charge: Charge): Decision | null {
  const reusable =
    open &&
    open.expiresAt > new Date() &&
    open.amountCents === charge.amountCents &&
    open.baseUrl === charge.baseUrl &&
    same(open.orderIds, charge.orderIds) &&
    same(open.bulkOrderIds, charge.bulkOrderIds) &&
    // jsonb keeps its own key order: compare the fields, not the text.
    (Object.keys(charge.shippingAddress) as (keyof ShippingAddress)[]).every(
      (key) => open.shippingAddress[key] === charge.shippingAddress[key],
    );
  if (reusable && open.providerCheckoutId && open.initPoint)
    return {
      kind: "reuse",
      checkoutId: open.id,
      providerCheckoutId: open.providerCheckoutId,
      initPoint: open.initPoint,
    };
  // Another request is asking the provider for its session right now: one checkout, whatever the clicks.
  if (reusable && open.starting) return { kind: "wait", checkoutId: open.id };
  return null;
}

/**
 * What is pending changed (or the hold ended, or its start died): the old checkout can't be paid any more.
 * Its provider's id, to close there after the commit.
 */
async function replaceOpen(tx: Db, open: OpenCheckout): Promise<string | null> {
  assertMove("checkout", open.status, "replaced", "shopper");
  await tx.update(checkouts).set({ status: "replaced" }).where(eq(checkouts.id, open.id));
  await releaseHolds(tx, open.id);
  return open.providerCheckoutId;
}

/** A new checkout holding the charge's units, being started (its lease taken) until the provider answers. */
async function openCheckout(tx: Db, deps: CheckoutDeps, userId: number, charge: Charge): Promise<Decision> {
  const { lines, orderIds, bulkOrderIds, amountCents, baseUrl, shippingAddress } = charge;
  const expiresAt = new Date(Date.now() + deps.holdSeconds * 1000);
  assertMove("checkout", null, "open", "shopper");
  const [created] = await tx
    .insert(checkouts)
    .values({
      userId,
      provider: deps.provider.name,
      orderIds,
      bulkOrderIds,
      amountCents,
      baseUrl,
      shippingAddress,
      expiresAt,
      startingUntil: leaseFromNow(deps),
    })
    .returning({ id: checkouts.id });
  // Refused with 409 "Only N left" before any payment: the whole transaction, old checkout included, rolls back.
  await holdStock(tx, created!.id, unitsPerVariant(lines), expiresAt);
  const [buyer] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return {
    kind: "create",
    checkoutId: created!.id,
    expiresAt,
    lines,
    amountCents,
    payerEmail: buyer!.email,
  };
}

const leaseFromNow = (deps: CheckoutDeps) =>
  sql`now() + make_interval(secs => ${deps.leaseSeconds ?? START_LEASE_SECONDS})`;

/**
 * Renews the start's lease while this request waits for the provider. One that ran out stays out: another Pay
 * may have taken it for a dead start and replaced the checkout.
 */
function keepStarting(deps: CheckoutDeps, checkoutId: number) {
  const renew = async () => {
    const renewed = await deps.db
      .update(checkouts)
      .set({ startingUntil: leaseFromNow(deps) })
      .where(
        and(
          eq(checkouts.id, checkoutId),
          eq(checkouts.status, "open"),
          gt(checkouts.startingUntil, sql`now()`),
        ),
      )
      .returning({ id: checkouts.id })
      // A renewal that fails lets the lease run out: at worst another Pay replaces this start (see create).
      .catch(() => [{ id: checkoutId }]);
    if (renewed.length === 0) clearInterval(timer);
  };
  const timer = setInterval(() => void renew(), ((deps.leaseSeconds ?? START_LEASE_SECONDS) * 1000) / 3);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Asks the provider for the new checkout's session and records it: the shopper's card page. */
async function create(
  deps: CheckoutDeps,
  decision: Extract<Decision, { kind: "create" }>,
  baseUrl: string,
): Promise<Started> {
  const { db, provider } = deps;
  const number = orderNumber(decision.checkoutId);
  const lease = keepStarting(deps, decision.checkoutId);
  let made;
  try {
    made = await provider.createCheckout({
      // The purchase's number: what the owner finds in the provider's dashboard.
      reference: number,
      description: `Voltio order ${number}`,
      // Items at 0 (a free Nth unit, free shipping) change no total and some providers refuse them.
      items: providerItems(decision.lines).filter((item) => item.unitPriceCents > 0),
      amountCents: decision.amountCents,
      payerEmail: decision.payerEmail,
      successUrl: `${baseUrl}/purchase/success`,
      failureUrl: `${baseUrl}/purchase/failure`,
      expiresAt: decision.expiresAt,
    });
  } catch (error) {
    // Nothing to pay at the provider: the units go back to the other shoppers at once.
    await db.transaction(async (tx) => {
      assertMove("checkout", "open", "expired", "system");
      const [expired] = await tx
        .update(checkouts)
        .set({ status: "expired", startingUntil: null })
        .where(and(eq(checkouts.id, decision.checkoutId), eq(checkouts.status, "open")))
        .returning({ id: checkouts.id });
      if (expired) await releaseHolds(tx, decision.checkoutId);
    });
    throw error;
  } finally {
    lease.stop();
  }
  const [saved] = await db
    .update(checkouts)
    .set({ providerCheckoutId: made.id, initPoint: made.initPoint, startingUntil: null })
    .where(and(eq(checkouts.id, decision.checkoutId), eq(checkouts.status, "open")))
    .returning({ id: checkouts.id });
  if (!saved) {
    // A newer Pay replaced it while the provider answered (this request's lease had run out): nobody may pay it.
    await provider.closeCheckout(made.id).catch((error: unknown) => deps.onCloseFailure?.(error));
    throw new Conflict("A newer payment replaced this one: press Pay again");
  }
  return { id: made.id, init_point: made.initPoint };
}

/**
 * A concurrent Pay of the same shopper: the answer is the checkout the first request is making; null once
 * that request died (its lease ran out with no session).
 */
async function waitForProvider(db: Db, checkoutId: number, deadline: number): Promise<Started | null> {
  for (let pause = 20; Date.now() < deadline; pause = Math.min(pause * 2, 500)) {
    const [row] = await db
      .select({
        status: checkouts.status,
        id: checkouts.providerCheckoutId,
        initPoint: checkouts.initPoint,
        died: sql<boolean>`${startDied}`,
      })
      .from(checkouts)
      .where(eq(checkouts.id, checkoutId));
    if (row?.id && row.initPoint) return { id: row.id, init_point: row.initPoint };
    if (row?.status !== "open") break;
    if (row.died) return null;
    await sleep(pause);
  }
  throw new Conflict("A payment is being started for these orders: try again in a moment");
}

/** What a checkout bought, as its items were charged: the summary on the payment result screen. */
export async function checkoutSummary(db: Db, checkoutId: number): Promise<OrderSummary> {
  const [checkout] = await db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
  if (!checkout) throw new NotFound("Payment Not Found");
  const rows = await db
    .select(snapshotColumns)
    .from(orders)
    .innerJoin(products, eq(products.id, orders.productId))
    .innerJoin(productVariants, eq(productVariants.id, orders.variantId))
    .where(coveredBy(checkout))
    .orderBy(asc(orders.id));
  const lines = rows.map(pendingLine);
  const totals = checkoutTotals(lines);
  return {
    number: orderNumber(checkout.id),
    items: lines.flatMap(checkoutItems).map((item) => ({
      title: item.title,
      amount: item.amount,
      unitPrice: toDollars(item.unitPriceCents),
      discountPercentage: item.discountPercentage,
    })),
    products: toDollars(totals.productsCents),
    shipping: toDollars(totals.shippingCents),
    total: toDollars(totals.totalCents),
    address: checkout.shippingAddress,
  };
}

import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import {
  SHIPPING_ITEM_TITLE,
  checkoutItems,
  checkoutTotals,
  type PendingLine,
} from "@voltio/domain/checkout";
import { toDollars } from "@voltio/domain/money";
import type { FeedbackReply, OrderSummary, PayBody, PaymentOutcome } from "@voltio/domain/payments";
import type { Db } from "../../db/client";
import {
  bulkOrders,
  checkouts,
  directions,
  orders,
  paymentEvents,
  payments,
  products,
  users,
  type ShippingAddress,
} from "../../db/schema";
import { InvalidInput, NotFound } from "../../errors";
import type { PaymentProvider, ProviderPayment } from "../../integrations/payments/provider";
import { queueMail } from "../../integrations/mail/outbox";
import { orderConfirmation, refundNotice } from "./order-mail";
import { lockStock } from "../catalog/stock";

/**
 * Checkout and settlement (issue 10; DESIGN.md §4; ADR 0008). A checkout covers everything the shopper has
 * pending when they press pay — the single pending lines and the pending bulk orders, as the /purchase
 * screen shows them — at the prices snapshotted when the lines became pending. A payment finishes those
 * orders only once the provider's own books say it is approved, for exactly that amount, and only if the
 * stock is still there: then the stock is taken in the same transaction, never below zero.
 */

/** A line's price snapshot, taken when it became pending: what the checkout charges for it. */
const snapshotColumns = {
  title: products.title,
  amount: orders.amount,
  unitPriceCents: orders.unitPriceCents,
  lineTotalCents: orders.lineTotalCents,
  shippingCostCents: orders.shippingCostCents,
  salePercentage: orders.salePercentage,
  discountedUnits: orders.discountedUnits,
};

/** The caller's pending lines not in a bulk order, and their pending bulk orders with their lines. */
async function pendingOf(db: Db, userId: number) {
  const lines = await db
    .select({ id: orders.id, bulkOrderId: orders.bulkOrderId, ...snapshotColumns })
    .from(orders)
    .innerJoin(products, eq(products.id, orders.productId))
    .leftJoin(bulkOrders, eq(bulkOrders.id, orders.bulkOrderId))
    .where(
      and(
        eq(orders.userId, userId),
        or(and(isNull(orders.bulkOrderId), eq(orders.status, "pending")), eq(bulkOrders.status, "pending")),
      ),
    )
    .orderBy(asc(orders.id));
  return lines.map((line) => ({ id: line.id, bulkOrderId: line.bulkOrderId, ...pendingLine(line) }));
}

/** A pending line's snapshot columns as the checkout rules read them. */
const pendingLine = (row: {
  title: string;
  amount: number;
  unitPriceCents: number | null;
  lineTotalCents: number | null;
  shippingCostCents: number | null;
  salePercentage: number | null;
  discountedUnits: number | null;
}): PendingLine => ({
  title: row.title,
  amount: row.amount,
  unitPriceCents: row.unitPriceCents ?? 0,
  lineTotalCents: row.lineTotalCents ?? 0,
  shippingCents: row.shippingCostCents ?? 0,
  salePercentage: row.salePercentage,
  discountedUnits: row.discountedUnits ?? 0,
});

const addressOf = (row: typeof directions.$inferSelect): ShippingAddress => ({
  city: row.city,
  street: row.street,
  streetNumber: row.streetNumber,
  floor: row.floor,
  unit: row.unit,
  postalCode: row.postalCode,
});

export interface CheckoutDeps {
  db: Db;
  provider: PaymentProvider;
}

/**
 * POST /{provider}/pay: the charge for what the caller has pending, built from the database. The same
 * pending orders, total and return address reuse the open checkout; anything else replaces it.
 */
export async function startCheckout(
  { db, provider }: CheckoutDeps,
  userId: number,
  body: PayBody,
  storeOrigins: readonly string[],
) {
  const base = new URL(body.baseURL);
  if (!storeOrigins.includes(base.origin)) throw new InvalidInput("baseURL", "must be this store's address");
  const baseUrl = `${base.origin}${base.pathname.replace(/\/+$/, "")}`;

  const lines = await pendingOf(db, userId);
  if (lines.length === 0) throw new NotFound("Nothing to pay: there are no pending orders");
  const [direction] = await db
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
  const { shippingCents, totalCents: amountCents } = checkoutTotals(lines);
  const shippingAddress = addressOf(direction);

  const [open] = await db
    .select()
    .from(checkouts)
    .where(
      and(eq(checkouts.userId, userId), eq(checkouts.provider, provider.name), eq(checkouts.status, "open")),
    )
    .orderBy(asc(checkouts.id));
  const same = (a: number[], b: number[]) => a.length === b.length && a.every((id, i) => id === b[i]);
  if (
    open?.providerCheckoutId &&
    open.initPoint &&
    open.amountCents === amountCents &&
    open.baseUrl === baseUrl &&
    same(open.orderIds, orderIds) &&
    same(open.bulkOrderIds, bulkOrderIds) &&
    // jsonb keeps its own key order: compare the fields, not the text.
    (Object.keys(shippingAddress) as (keyof ShippingAddress)[]).every(
      (key) => open.shippingAddress[key] === shippingAddress[key],
    )
  ) {
    return { id: open.providerCheckoutId, init_point: open.initPoint };
  }

  const checkout = await db.transaction(async (tx) => {
    // One open checkout per shopper: an older one (other orders, another address) can't be paid any more.
    await tx
      .update(checkouts)
      .set({ status: "replaced" })
      .where(and(eq(checkouts.userId, userId), eq(checkouts.status, "open")));
    const [created] = await tx
      .insert(checkouts)
      .values({
        userId,
        provider: provider.name,
        orderIds,
        bulkOrderIds,
        amountCents,
        baseUrl,
        shippingAddress,
      })
      .returning({ id: checkouts.id });
    return created!;
  });
  // The provider is called outside any transaction: a slow provider holds no rows.
  const made = await provider.createCheckout({
    reference: String(checkout.id),
    description: `Voltio order ${checkout.id}`,
    // Items at 0 (a free Nth unit, free shipping) change no total and some providers refuse them.
    items: [
      ...lines.flatMap(checkoutItems).map(({ title, amount, unitPriceCents }) => ({
        title,
        amount,
        unitPriceCents,
      })),
      { title: SHIPPING_ITEM_TITLE, amount: 1, unitPriceCents: shippingCents },
    ].filter((item) => item.unitPriceCents > 0),
    amountCents,
    payerEmail: await buyerEmail(db, userId),
    successUrl: `${baseUrl}/purchase/success`,
    failureUrl: `${baseUrl}/purchase/failure`,
  });
  await db
    .update(checkouts)
    .set({ providerCheckoutId: made.id, initPoint: made.initPoint })
    .where(eq(checkouts.id, checkout.id));
  return { id: made.id, init_point: made.initPoint };
}

const reply = (Status: PaymentOutcome, payment: ProviderPayment): FeedbackReply => ({
  Status,
  Payment: payment.id,
  ...(Status === "rejected" && payment.declineReason ? { reason: payment.declineReason } : {}),
});

/** What a checkout bought, as its items were charged: the summary on the payment result screen. */
export async function checkoutSummary(db: Db, checkoutId: number): Promise<OrderSummary> {
  const [checkout] = await db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
  if (!checkout) throw new NotFound("Payment Not Found");
  const rows = await db
    .select(snapshotColumns)
    .from(orders)
    .innerJoin(products, eq(products.id, orders.productId))
    .where(coveredBy(checkout))
    .orderBy(asc(orders.id));
  const lines = rows.map(pendingLine);
  const totals = checkoutTotals(lines);
  return {
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

/** The order lines a checkout pays: its single lines and the lines of its bulk orders. */
const coveredBy = (checkout: { orderIds: number[]; bulkOrderIds: number[] }) =>
  or(
    checkout.orderIds.length ? inArray(orders.id, checkout.orderIds) : sql`false`,
    checkout.bulkOrderIds.length ? inArray(orders.bulkOrderId, checkout.bulkOrderIds) : sql`false`,
  );

/**
 * Records what the provider says of a payment and, when it is approved, settles its checkout in one
 * transaction. A notification seen before (same event id) or a checkout settled before changes nothing, so
 * the return page, the webhook and their repeats make exactly one transition between them.
 */
export async function settlePayment(
  db: Db,
  provider: PaymentProvider,
  payment: ProviderPayment,
  options: { userId?: number; eventId?: string } = {},
): Promise<FeedbackReply> {
  const checkoutId = Number(payment.reference);
  if (!Number.isSafeInteger(checkoutId)) throw new NotFound("Payment Not Found");
  return db.transaction(async (tx) => {
    const [checkout] = await tx
      .select()
      .from(checkouts)
      .where(
        and(
          eq(checkouts.id, checkoutId),
          eq(checkouts.provider, provider.name),
          options.userId === undefined ? undefined : eq(checkouts.userId, options.userId),
        ),
      )
      .for("update");
    if (!checkout) throw new NotFound("Payment Not Found");
    if (options.eventId) {
      await tx
        .insert(paymentEvents)
        .values({ provider: provider.name, eventId: options.eventId })
        .onConflictDoNothing();
    }
    await tx
      .insert(payments)
      .values({
        provider: provider.name,
        providerPaymentId: payment.id,
        status: payment.status,
        amountCents: payment.amountCents,
        checkoutId: checkout.id,
        rawPayload: payment.raw,
      })
      .onConflictDoUpdate({
        target: [payments.provider, payments.providerPaymentId],
        set: { status: payment.status, amountCents: payment.amountCents, rawPayload: payment.raw },
      });

    if (checkout.paymentId === payment.id) {
      if (checkout.status === "paid") return reply("approved", payment);
      if (checkout.status === "refund_needed" || checkout.status === "amount_mismatch")
        return reply(checkout.status, payment);
    }
    if (payment.status !== "approved") return reply(payment.status, payment);

    const close = async (status: "paid" | "refund_needed" | "amount_mismatch") => {
      await tx.update(checkouts).set({ status, paymentId: payment.id }).where(eq(checkouts.id, checkout.id));
    };
    // Paid twice (a replaced checkout paid in another tab, or a second payment): the money waits for a refund.
    if (checkout.status !== "open" && checkout.status !== "replaced") {
      return reply("refund_needed", payment);
    }
    if (payment.amountCents !== checkout.amountCents) {
      await close("amount_mismatch");
      await flagOrders(tx, checkout, payment.id, "amount_mismatch");
      return reply("amount_mismatch", payment);
    }

    const lines = await tx
      .select({
        id: orders.id,
        status: orders.status,
        productId: orders.productId,
        amount: orders.amount,
        lineTotalCents: orders.lineTotalCents,
        shippingCostCents: orders.shippingCostCents,
      })
      .from(orders)
      .where(coveredBy(checkout))
      .orderBy(asc(orders.id))
      .for("update");
    const stillPending =
      lines.length > 0 &&
      lines.every((line) => line.status === "pending") &&
      checkout.orderIds.every((id) => lines.some((line) => line.id === id));
    if (!stillPending) {
      await close("refund_needed");
      return reply("refund_needed", payment);
    }

    // Stock taken per product, summed, in product id order (two settlements never wait on each other).
    const needed = new Map<number, number>();
    for (const line of lines) needed.set(line.productId, (needed.get(line.productId) ?? 0) + line.amount);
    const productIds = [...needed.keys()];
    const stocks = await lockStock(tx, productIds);
    const enough = productIds.every((id) => (stocks.get(id)?.stock ?? 0) >= needed.get(id)!);
    if (!enough) {
      // Paid, but another buyer took the last units first: the orders leave the checkout, cancelled, and
      // wait for the admin's refund; the payment stays on record.
      await close("refund_needed");
      await flagOrders(tx, checkout, payment.id, "refund_needed", "cancelled");
      await queueMail(tx, refundNotice(checkout, await buyerEmail(tx, checkout.userId), payment.id));
      return reply("refund_needed", payment);
    }
    for (const id of productIds) {
      await tx
        .update(products)
        .set({ stock: sql`${products.stock} - ${needed.get(id)!}` })
        .where(and(eq(products.id, id), sql`${products.stock} >= ${needed.get(id)!}`));
    }
    const now = new Date();
    const finished = {
      status: "finished" as const,
      purchaseId: payment.id,
      serverPurchaseDate: now,
      shippingAddress: checkout.shippingAddress,
      updatedAt: now,
    };
    await tx
      .update(orders)
      .set(finished)
      .where(
        inArray(
          orders.id,
          lines.map((line) => line.id),
        ),
      );
    if (checkout.bulkOrderIds.length)
      await tx.update(bulkOrders).set(finished).where(inArray(bulkOrders.id, checkout.bulkOrderIds));
    await close("paid");
    const titles = await tx
      .select({ id: products.id, title: products.title })
      .from(products)
      .where(inArray(products.id, productIds));
    const titleOf = new Map(titles.map((row) => [row.id, row.title]));
    await queueMail(
      tx,
      orderConfirmation(
        checkout,
        await buyerEmail(tx, checkout.userId),
        payment.id,
        lines.map((line) => ({ ...line, title: titleOf.get(line.productId) ?? "" })),
      ),
    );
    return reply("approved", payment);
  });
}

const buyerEmail = async (tx: Db, userId: number) =>
  (await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]!.email;

/**
 * Orders of a checkout that took money but can't be finished: they stand out for the admin, with the
 * payment to refund (or to complete) as their reference.
 */
async function flagOrders(
  tx: Db,
  checkout: { orderIds: number[]; bulkOrderIds: number[] },
  paymentId: string,
  flag: "refund_needed" | "amount_mismatch",
  status?: "cancelled",
) {
  const change = { flag, purchaseId: paymentId, ...(status ? { status } : {}) };
  if (checkout.orderIds.length)
    await tx.update(orders).set(change).where(inArray(orders.id, checkout.orderIds));
  if (checkout.bulkOrderIds.length) {
    await tx.update(bulkOrders).set(change).where(inArray(bulkOrders.id, checkout.bulkOrderIds));
    await tx.update(orders).set(change).where(inArray(orders.bulkOrderId, checkout.bulkOrderIds));
  }
}

import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { checkoutTotals } from "@voltio/domain/checkout";
import { toDollars } from "@voltio/domain/money";
import { checkoutIdOf, orderNumber, type OrderStatus } from "@voltio/domain/order-status";
import {
  trackingUrl,
  type Purchase,
  type PurchaseEvent,
  type PurchaseSummary,
  type Shipment,
} from "@voltio/domain/purchase";
import type { Db } from "../../db/client";
import {
  bulkOrders,
  checkouts,
  orderEvents,
  orders,
  payments,
  productImages,
  products,
  refunds,
  users,
} from "../../db/schema";
import { NotFound } from "../../errors";
import { lineVariants } from "../inventory/variants";
import type { Caller } from "../identity/caller";

/**
 * A purchase as its buyer (and the back office) sees it after paying: everything a paid
 * checkout covers — its single lines and bulk orders, each a shipment with its own status and history
 * (order_events, kept by triggers) — with the money, the address and the payment. The order page, the receipt
 * and "buy again" all read it from here.
 */

export type TrackingTemplates = Readonly<Record<string, string>>;

/** What the buyer and an admin may know of a purchase; the owner's id decides who may open it. */
export interface LoadedPurchase extends Purchase {
  userId: number;
  checkoutId: number;
  /** The store's address the buyer paid from: the order page's link in e-mails. */
  baseUrl: string;
}

const NOT_FOUND = "Purchase Not Found";

/** The first picture of each product (position order). */
async function picturesOf(db: Db, productIds: number[]): Promise<Map<number, string>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ productId: productImages.productId, url: productImages.url })
    .from(productImages)
    .where(inArray(productImages.productId, productIds))
    .orderBy(asc(productImages.productId), asc(productImages.position));
  const first = new Map<number, string>();
  for (const row of rows) if (!first.has(row.productId)) first.set(row.productId, row.url);
  return first;
}

/**
 * The card behind a payment when the provider's record names it (Mercado Pago's payment, a Stripe charge);
 * null otherwise, and the page names the provider instead.
 */
export function paymentMethodOf(raw: unknown): string | null {
  if (!raw || typeof raw !== "object") return null;
  const record = raw as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
  const card = (record.card ?? null) as Record<string, unknown> | null;
  const mercadoPago = text(card?.last_four_digits);
  if (mercadoPago) return `${text(record.payment_method_id) ?? "card"} •••• ${mercadoPago}`;
  const details = (record.payment_method_details ?? null) as { card?: Record<string, unknown> } | null;
  const stripe = text(details?.card?.last4);
  if (stripe) return `${text(details?.card?.brand) ?? "card"} •••• ${stripe}`;
  return null;
}

const eventOf = (
  templates: TrackingTemplates,
  row: { status: OrderStatus; createdAt: Date; trackingNumber: string | null; carrier: string | null },
): PurchaseEvent => ({
  status: row.status,
  at: row.createdAt.toISOString(),
  trackingNumber: row.trackingNumber,
  carrier: row.carrier,
  trackingUrl: trackingUrl(templates, row.carrier, row.trackingNumber),
});

/** The purchase a checkout paid, or null when it covers nothing paid (an open or expired checkout). */
export async function loadPurchase(
  db: Db,
  checkoutId: number,
  templates: TrackingTemplates,
): Promise<LoadedPurchase | null> {
  const [checkout] = await db
    .select({
      id: checkouts.id,
      userId: checkouts.userId,
      baseUrl: checkouts.baseUrl,
      shippingAddress: checkouts.shippingAddress,
      providerPaymentId: checkouts.providerPaymentId,
      buyer: {
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      },
    })
    .from(checkouts)
    .innerJoin(users, eq(users.id, checkouts.userId))
    .where(eq(checkouts.id, checkoutId));
  if (!checkout) return null;
  const [singles, bulks] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(and(eq(orders.checkoutId, checkoutId), isNull(orders.bulkOrderId)))
      .orderBy(asc(orders.id)),
    db.select().from(bulkOrders).where(eq(bulkOrders.checkoutId, checkoutId)).orderBy(asc(bulkOrders.id)),
  ]);
  if (singles.length === 0 && bulks.length === 0) return null;
  const bulkIds = bulks.map((bulk) => bulk.id);
  const singleIds = singles.map((line) => line.id);
  const [bulkLines, events, paid, refundRows] = await Promise.all([
    bulkIds.length
      ? db.select().from(orders).where(inArray(orders.bulkOrderId, bulkIds)).orderBy(asc(orders.id))
      : [],
    db
      .select()
      .from(orderEvents)
      .where(
        or(
          singleIds.length ? inArray(orderEvents.orderId, singleIds) : undefined,
          bulkIds.length ? inArray(orderEvents.bulkOrderId, bulkIds) : undefined,
        ),
      )
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
    db
      .select()
      .from(payments)
      .where(eq(payments.checkoutId, checkoutId))
      // The payment that paid it first; a duplicate one (refunded) after.
      .orderBy(
        desc(sql`${payments.providerPaymentId} = ${checkout.providerPaymentId ?? ""}`),
        asc(payments.id),
      ),
    db
      .select({ amountCents: refunds.amountCents, status: refunds.status, createdAt: refunds.createdAt })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(eq(payments.checkoutId, checkoutId))
      .orderBy(asc(refunds.createdAt), asc(refunds.id)),
  ]);

  const allLines = [...singles, ...bulkLines].sort((a, b) => a.id - b.id);
  const productIds = [...new Set(allLines.map((line) => line.productId))];
  // A line is titled by what it sold: "Logitech M720 — Black" (the product's title for a default variant).
  const [variants, pictures] = await Promise.all([
    lineVariants(
      db,
      allLines.map((line) => line.variantId),
    ),
    picturesOf(db, productIds),
  ]);
  const lines = allLines.map((line) => {
    const lineTotalCents = line.lineTotalCents ?? 0;
    return {
      orderId: line.id,
      productId: line.productId,
      variantId: line.variantId,
      title: variants.get(line.variantId)?.name ?? "",
      picture: pictures.get(line.productId) ?? null,
      amount: line.amount,
      unitPrice: toDollars(line.unitPriceCents ?? Math.round(lineTotalCents / line.amount)),
      lineTotal: toDollars(lineTotalCents),
      shipping: toDollars(line.shippingCostCents ?? 0),
      sale: line.salePercentage
        ? { percentage: line.salePercentage, discountedUnits: line.discountedUnits ?? 0 }
        : null,
      cents: { lineTotalCents, shippingCents: line.shippingCostCents ?? 0 },
    };
  });
  const totals = checkoutTotals(lines.map((line) => line.cents));

  const shipmentOf = (
    kind: Shipment["kind"],
    row: (typeof singles)[number] | (typeof bulks)[number],
    orderIds: number[],
  ): Shipment => ({
    kind,
    id: row.id,
    status: row.status,
    orderIds,
    trackingNumber: row.trackingNumber,
    carrier: row.carrier,
    trackingUrl: trackingUrl(templates, row.carrier, row.trackingNumber),
    events: events
      .filter((event) => (kind === "order" ? event.orderId === row.id : event.bulkOrderId === row.id))
      .map((event) => eventOf(templates, event)),
  });
  const shipments = [
    ...singles.map((line) => shipmentOf("order", line, [line.id])),
    ...bulks.map((bulk) =>
      shipmentOf(
        "bulk",
        bulk,
        bulkLines.filter((line) => line.bulkOrderId === bulk.id).map((line) => line.id),
      ),
    ),
  ];
  const dates = [...singles, ...bulks]
    .map((row) => row.serverPurchaseDate)
    .filter((date): date is Date => date !== null)
    .sort((a, b) => a.getTime() - b.getTime());
  const payment = paid[0];
  return {
    userId: checkout.userId,
    checkoutId: checkout.id,
    baseUrl: checkout.baseUrl,
    number: orderNumber(checkout.id),
    purchaseDate: (dates[0] ?? payment?.createdAt ?? new Date()).toISOString(),
    buyer: checkout.buyer,
    lines: lines.map(({ cents: _cents, ...line }) => line),
    products: toDollars(totals.productsCents),
    shipping: toDollars(totals.shippingCents),
    total: toDollars(totals.totalCents),
    shippingAddress: singles[0]?.shippingAddress ?? bulks[0]?.shippingAddress ?? checkout.shippingAddress,
    payment: payment
      ? {
          provider: payment.provider,
          reference: payment.providerPaymentId,
          method: paymentMethodOf(payment.rawPayload),
          amount: toDollars(payment.amountCents),
          refunded: toDollars(paid.reduce((sum, row) => sum + row.refundedCents, 0)),
        }
      : null,
    shipments,
    refunds: refundRows.map((row) => ({
      amount: toDollars(row.amountCents),
      status: row.status,
      at: row.createdAt.toISOString(),
    })),
  };
}

/**
 * A purchase by its number, for its buyer or an admin. Anyone else, like a number that names nothing, is
 * told it doesn't exist: the reply never says whose a number is.
 */
export async function purchaseFor(
  db: Db,
  caller: Caller,
  number: string,
  templates: TrackingTemplates,
): Promise<LoadedPurchase> {
  const checkoutId = checkoutIdOf(number);
  const purchase = checkoutId === null ? null : await loadPurchase(db, checkoutId, templates);
  if (!purchase || (caller.rol !== "admin" && purchase.userId !== caller.id)) throw new NotFound(NOT_FOUND);
  return purchase;
}

/** What the reply shows: the loaded purchase without the server's own keys. */
export function purchaseReply(purchase: LoadedPurchase): Purchase {
  const { userId: _userId, checkoutId: _checkoutId, baseUrl: _baseUrl, ...reply } = purchase;
  return reply;
}

const PICTURES_PER_CARD = 4;

/** GET /order/purchases: the caller's paid purchases, newest first, as the Purchases page's cards. */
export async function listPurchases(db: Db, userId: number): Promise<PurchaseSummary[]> {
  const [singles, bulks] = await Promise.all([
    db
      .select({
        checkoutId: orders.checkoutId,
        id: orders.id,
        productId: orders.productId,
        amount: orders.amount,
        status: orders.status,
        lineTotalCents: orders.lineTotalCents,
        shippingCostCents: orders.shippingCostCents,
        date: orders.serverPurchaseDate,
      })
      .from(orders)
      .where(and(eq(orders.userId, userId), isNotNull(orders.checkoutId), isNull(orders.bulkOrderId))),
    db
      .select({
        id: bulkOrders.id,
        checkoutId: bulkOrders.checkoutId,
        status: bulkOrders.status,
        date: bulkOrders.serverPurchaseDate,
      })
      .from(bulkOrders)
      .where(and(eq(bulkOrders.userId, userId), isNotNull(bulkOrders.checkoutId))),
  ]);
  const bulkLines = bulks.length
    ? await db
        .select({
          bulkOrderId: orders.bulkOrderId,
          id: orders.id,
          productId: orders.productId,
          amount: orders.amount,
          lineTotalCents: orders.lineTotalCents,
          shippingCostCents: orders.shippingCostCents,
        })
        .from(orders)
        .where(
          inArray(
            orders.bulkOrderId,
            bulks.map((bulk) => bulk.id),
          ),
        )
    : [];
  interface Card {
    checkoutId: number;
    date: Date | null;
    statuses: OrderStatus[];
    lines: { id: number; productId: number; amount: number; lineTotalCents: number; shippingCents: number }[];
  }
  const cards = new Map<number, Card>();
  const cardOf = (checkoutId: number) => {
    const card = cards.get(checkoutId) ?? { checkoutId, date: null, statuses: [], lines: [] };
    cards.set(checkoutId, card);
    return card;
  };
  const seen = (card: Card, status: OrderStatus, date: Date | null) => {
    if (!card.statuses.includes(status)) card.statuses.push(status);
    if (date && (!card.date || date < card.date)) card.date = date;
  };
  const lineOf = (line: {
    id: number;
    productId: number;
    amount: number;
    lineTotalCents: number | null;
    shippingCostCents: number | null;
  }) => ({
    id: line.id,
    productId: line.productId,
    amount: line.amount,
    lineTotalCents: line.lineTotalCents ?? 0,
    shippingCents: line.shippingCostCents ?? 0,
  });
  for (const line of singles) {
    const card = cardOf(line.checkoutId!);
    seen(card, line.status, line.date);
    card.lines.push(lineOf(line));
  }
  for (const bulk of bulks) {
    const card = cardOf(bulk.checkoutId!);
    seen(card, bulk.status, bulk.date);
    card.lines.push(...bulkLines.filter((line) => line.bulkOrderId === bulk.id).map(lineOf));
  }
  const sorted = [...cards.values()].sort((a, b) => b.checkoutId - a.checkoutId);
  const cardProducts = (card: Card) =>
    [...new Set(card.lines.sort((a, b) => a.id - b.id).map((line) => line.productId))].slice(
      0,
      PICTURES_PER_CARD,
    );
  const productIds = [...new Set(sorted.flatMap(cardProducts))];
  const [pictures, titles] = await Promise.all([
    picturesOf(db, productIds),
    productIds.length
      ? db
          .select({ id: products.id, title: products.title })
          .from(products)
          .where(inArray(products.id, productIds))
      : [],
  ]);
  const titleOf = new Map(titles.map((row) => [row.id, row.title]));
  return sorted.map((card) => ({
    number: orderNumber(card.checkoutId),
    purchaseDate: (card.date ?? new Date(0)).toISOString(),
    total: toDollars(checkoutTotals(card.lines).totalCents),
    units: card.lines.reduce((sum, line) => sum + line.amount, 0),
    statuses: card.statuses,
    pictures: cardProducts(card).map((productId) => ({
      url: pictures.get(productId) ?? "",
      title: titleOf.get(productId) ?? "",
    })),
  }));
}

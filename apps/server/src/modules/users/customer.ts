import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { asc, count, desc, eq } from "drizzle-orm";
import {
  CUSTOMER_LIST_MAX,
  customerSchema,
  type Customer,
  type CustomerPurchase,
} from "@voltio/domain/customer";
import { ORDER_FLAGS, type OrderFlag } from "@voltio/domain/admin-orders";
import { idParamSchema } from "@voltio/domain/http";
import { toDollars } from "@voltio/domain/money";
import { PAID_STATUSES, PURCHASE_STATUSES, numberOf, type PurchaseStatus } from "@voltio/domain/order-status";
import type { Db } from "../../db/client";
import { rawQuery } from "../../db/raw";
import { comments, directions, products, users } from "../../db/schema";
import { NotFound } from "../../errors";
import { BEARER, SIGNED_IN_ERRORS } from "../../http/private-replies";
import { summaryColumns, withPicture } from "./service";

/**
 * The back office's customer page: one account as the owner looks at it — profile,
 * addresses, purchases with their totals and statuses, lifetime spend, reviews. Read only; the lists hold
 * the newest CUSTOMER_LIST_MAX, the counts and the spend cover everything.
 */

/** Statuses of a line or bulk order that was bought (paid, or cancelled afterwards): not 'pending' yet. */
const BOUGHT = PURCHASE_STATUSES.filter((status) => status !== "pending");
const sqlList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");

/**
 * The customer's bought rows, one per single line (not in a bulk order) and one per bulk order, with what each
 * cost (products and shipping) and its units. $1 is the user id.
 */
const BOUGHT_ROWS = `
  select o.checkout_id, 'order' as kind, o.id, o.status::text as status, o.flag::text as flag,
         coalesce(o.server_purchase_date, o.created_at) as date,
         coalesce(o.line_total_cents, 0) + coalesce(o.shipping_cost_cents, 0) as cents, o.amount as units
    from orders o
   where o.user_id = $1 and o.bulk_order_id is null and o.status in (${sqlList(BOUGHT)})
  union all
  select b.checkout_id, 'bulk', b.id, b.status::text, b.flag::text,
         coalesce(b.server_purchase_date, b.created_at),
         b.combined_price_cents + b.combined_shipping_cost_cents,
         (select coalesce(sum(l.amount), 0)::int from orders l where l.bulk_order_id = b.id)
    from bulk_orders b
   where b.user_id = $1 and b.status in (${sqlList(BOUGHT)})`;

/**
 * Purchases: a paid checkout's rows together (one order number), and each row bought before checkouts
 * existed (demo history, older stores) on its own.
 */
const PURCHASES = `
  select r.checkout_id, min(r.date) as date, sum(r.cents)::float8 as cents, sum(r.units)::int as units,
         array_agg(distinct r.status) as statuses,
         coalesce(array_agg(distinct r.flag) filter (where r.flag is not null), '{}') as flags
    from (${BOUGHT_ROWS}) r
   group by r.checkout_id, case when r.checkout_id is null then r.kind || ':' || r.id end`;

/**
 * What of a payment has been given back or is on its way back: the store's refunds queued or taken, or what
 * the provider reports if that is more (a refund made on the provider's dashboard), never above the payment.
 */
const GIVEN_BACK = `least(p.amount_cents, greatest(p.refunded_cents,
  (select coalesce(sum(f.amount_cents), 0) from refunds f
    where f.payment_id = p.id and f.status in ('pending', 'succeeded'))))`;

interface PurchaseRow {
  checkout_id: number | null;
  date: Date | string;
  cents: number;
  units: number;
  statuses: string[];
  flags: string[];
  charged: number | null;
  refunded: number | null;
}

/**
 * Lifetime spend: what the customer paid and the store kept. It is the sum, over every approved payment of
 * the customer's checkouts, of the amount less what was given back or is on its way back (GIVEN_BACK: a
 * refunded purchase counts for what is left of it, a duplicate payment refunded in full for nothing), plus
 * the purchases recorded without a payment (bought before checkouts existed) that are still paid — finished,
 * preparing, on delivery or delivered — at their products and shipping. Pending and unpaid checkouts count
 * for nothing. Counted in SQL, over all the customer's purchases, not only the listed ones.
 */
const LIFETIME_SPEND = `
  select (
    (select coalesce(sum(p.amount_cents - ${GIVEN_BACK}), 0)
       from payments p join checkouts c on c.id = p.checkout_id
      where c.user_id = $1 and p.status = 'approved')
    + (select coalesce(sum(r.cents), 0)
         from (${BOUGHT_ROWS}) r
        where r.checkout_id is null and r.status in (${sqlList(PAID_STATUSES)}))
  )::float8 as cents`;

const inOrder = <T extends string>(order: readonly T[], values: string[]) =>
  order.filter((value) => values.includes(value));

/** GET /user/admin/:id/customer. Unknown id: NotFound. Erased accounts answer too (their orders stay). */
export async function customerOf(db: Db, userId: number): Promise<Customer> {
  const [profile] = await db
    .select({ ...summaryColumns, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!profile) throw new NotFound("User Not Found");

  const raw = rawQuery(db);
  const [addresses, purchases, [purchaseCount], [spend], reviews, [reviewCount]] = await Promise.all([
    db
      .select({
        id: directions.id,
        city: directions.city,
        street: directions.street,
        streetNumber: directions.streetNumber,
        floor: directions.floor,
        unit: directions.unit,
        postalCode: directions.postalCode,
      })
      .from(directions)
      .where(eq(directions.userId, userId))
      .orderBy(asc(directions.id))
      .limit(CUSTOMER_LIST_MAX),
    // The charge is the checkout's amount (what the provider was asked for); without a checkout, the rows' sum.
    raw<PurchaseRow>(
      undefined,
      `select g.checkout_id, g.date, g.cents, g.units, g.statuses, g.flags,
              c.amount_cents as charged,
              (select ${GIVEN_BACK} from payments p
                where p.checkout_id = c.id and p.provider_payment_id = c.provider_payment_id
                  and p.status = 'approved') as refunded
         from (${PURCHASES}) g left join checkouts c on c.id = g.checkout_id
        order by g.date desc, g.checkout_id desc nulls last
        limit ${CUSTOMER_LIST_MAX}`,
      [userId],
    ),
    raw<{ total: number }>(undefined, `select count(*)::int as total from (${PURCHASES}) g`, [userId]),
    raw<{ cents: number }>(undefined, LIFETIME_SPEND, [userId]),
    db
      .select({
        id: comments.id,
        productId: comments.productId,
        productTitle: products.title,
        rating: comments.rating,
        content: comments.content,
        createdAt: comments.createdAt,
        updatedAt: comments.updatedAt,
      })
      .from(comments)
      .innerJoin(products, eq(products.id, comments.productId))
      .where(eq(comments.userId, userId))
      .orderBy(desc(comments.updatedAt), desc(comments.id))
      .limit(CUSTOMER_LIST_MAX),
    db.select({ total: count() }).from(comments).where(eq(comments.userId, userId)),
  ]);

  return {
    profile: {
      ...withPicture(profile),
      createdAt: profile.createdAt.toISOString(),
      deletedAt: profile.deletedAt?.toISOString() ?? null,
    },
    addresses,
    purchases: purchases.map((row): CustomerPurchase => ({
      number: numberOf(row.checkout_id === null ? null : Number(row.checkout_id)),
      date: new Date(row.date).toISOString(),
      total: toDollars(Number(row.charged ?? row.cents)),
      refunded: toDollars(Number(row.refunded ?? 0)),
      units: Number(row.units),
      statuses: inOrder<PurchaseStatus>(PURCHASE_STATUSES, row.statuses),
      flags: inOrder<OrderFlag>(ORDER_FLAGS, row.flags),
    })),
    purchaseCount: Number(purchaseCount?.total ?? 0),
    lifetimeSpend: toDollars(Number(spend?.cents ?? 0)),
    reviews: reviews.map((review) => ({
      ...review,
      createdAt: review.createdAt.toISOString(),
      updatedAt: review.updatedAt.toISOString(),
    })),
    reviewCount: Number(reviewCount?.total ?? 0),
  };
}

/** Registers GET /user/admin/:id/customer on the users module's routes. */
export function customerRoute(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/user/admin/:id/customer",
      {
        config: { access: "admin" },
        schema: {
          tags: ["users", "admin"],
          summary:
            "One customer for the back office: profile, addresses, newest purchases with totals and statuses, " +
            "lifetime spend, newest reviews (admin)",
          security: BEARER,
          params: idParamSchema,
          response: { 200: customerSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => customerOf(db, request.params.id),
    );
  };
}

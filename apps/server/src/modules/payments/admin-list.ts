import { and, desc, eq, sql } from "drizzle-orm";
import { toDollars } from "@voltio/domain/money";
import { orderNumber } from "@voltio/domain/order-status";
import type { AdminPayment, AdminPaymentPage, AdminPaymentQuery } from "@voltio/domain/payments";
import { pageInfo } from "@voltio/domain/http";
import type { Db } from "../../db/client";
import { checkouts, payments, refunds } from "../../db/schema";

/** The back office's Payments list: every payment, and which ones the owner must look at. */

/** An approved payment is accounted for when it paid its checkout or was given back in full. */
const ACCOUNTED = sql`(${payments.status} <> 'approved'
  or ${payments.refundedCents} >= ${payments.amountCents}
  or (${checkouts.status} = 'paid' and ${checkouts.providerPaymentId} = ${payments.providerPaymentId}))`;

/** What the owner must look at: money not accounted for, a dispute, a refund the provider would not take. */
const NEEDS_ATTENTION = sql`(not ${ACCOUNTED} or ${payments.disputed}
  or exists (select 1 from ${refunds} r where r.payment_id = ${payments.id} and r.status in ('pending', 'failed')))`;

/** GET /payment/admin: payments newest first, those needing attention first when asked. */
export async function listPayments(db: Db, query: AdminPaymentQuery): Promise<AdminPaymentPage> {
  const where = and(
    query.userId === undefined ? undefined : eq(checkouts.userId, query.userId),
    query.attention === undefined
      ? undefined
      : query.attention
        ? NEEDS_ATTENTION
        : sql`not ${NEEDS_ATTENTION}`,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: payments.id,
        provider: payments.provider,
        providerPaymentId: payments.providerPaymentId,
        status: payments.status,
        amountCents: payments.amountCents,
        refundedCents: payments.refundedCents,
        currency: payments.currency,
        disputed: payments.disputed,
        checkoutId: payments.checkoutId,
        userId: checkouts.userId,
        attention: sql<boolean>`${NEEDS_ATTENTION}`,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .innerJoin(checkouts, eq(checkouts.id, payments.checkoutId))
      .where(where)
      .orderBy(desc(sql`${NEEDS_ATTENTION}`), desc(payments.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(payments)
      .innerJoin(checkouts, eq(checkouts.id, payments.checkoutId))
      .where(where),
  ]);
  return {
    ...pageInfo(query.page, query.limit, Number(total?.total ?? 0)),
    payments: rows.map((row): AdminPayment => ({
      id: row.id,
      provider: row.provider,
      providerPaymentId: row.providerPaymentId,
      status: row.status,
      amount: toDollars(row.amountCents),
      refunded: toDollars(row.refundedCents),
      currency: row.currency,
      disputed: row.disputed,
      userId: row.userId,
      orderNumbers: [orderNumber(row.checkoutId)],
      attention: Boolean(row.attention),
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

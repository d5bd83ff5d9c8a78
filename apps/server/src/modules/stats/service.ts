import { and, asc, between, desc, eq, gte, inArray, isNull, lt, or, sql, type AnyColumn } from "drizzle-orm";
import { PAID_STATUSES } from "@voltio/domain/orders";
import { STATS_DEFAULT_DAYS, STATS_MAX_DAYS, type StatsQuery, type StatsReply } from "@voltio/domain/admin";
import { toDollars } from "@voltio/domain/money";
import type { Db } from "../../db/client";
import {
  orderStatsDaily,
  productStatsDaily,
  productStatsMonthly,
  products,
  storeSettings,
  users,
} from "../../db/schema";
import { InvalidInput } from "../../errors";

/**
 * The dashboard's figures (docs/product-rules.md §1 Admin dashboard; §10 GET /stats), read from the day
 * and month summaries that triggers keep in the transaction of every order change (migration 0009): a year
 * costs thousands of rows, not a million orders. Sales are the lines' totals (products after discounts,
 * shipping excluded) of paid orders (PAID_STATUSES), on the day of their purchase in the store's time zone.
 */

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Today's date (YYYY-MM-DD) in the store's time zone. */
export function storeToday(timeZone: string, now: Date): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  })
    .formatToParts(now)
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The days asked for: `to` today and `from` STATS_DEFAULT_DAYS before its end unless given. */
export function statsPeriod(query: StatsQuery, today: string): { from: string; to: string } {
  const to = query.to ?? today;
  const from = query.from ?? dateOf(dayNumber(to) - (STATS_DEFAULT_DAYS - 1));
  if (from > to) throw new InvalidInput("from", "must not be after to");
  if (dayNumber(to) - dayNumber(from) >= STATS_MAX_DAYS)
    throw new InvalidInput("from", `must be at most ${STATS_MAX_DAYS} days before to`);
  return { from, to };
}

const sum = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)::float8`.mapWith(Number);

/** The first day of the month of a date. */
const monthOf = (date: string) => `${date.slice(0, 7)}-01`;

/**
 * The five best-selling products of the period: whole months from the monthly summary, the days of the
 * months it only cuts into from the daily one. Months [wholeFrom, wholeTo) lie inside the period; when there
 * are none (wholeFrom >= wholeTo), every day of the period comes from the daily summary.
 */
function topProductsQuery(db: Db, { from, to }: { from: string; to: string }) {
  const wholeFrom = from === monthOf(from) ? from : monthOf(dateOf(dayNumber(monthOf(from)) + 31));
  const wholeTo = monthOf(dateOf(dayNumber(to) + 1));
  const months = db
    .select({
      productId: productStatsMonthly.productId,
      units: productStatsMonthly.units,
      salesCents: productStatsMonthly.salesCents,
    })
    .from(productStatsMonthly)
    .where(and(gte(productStatsMonthly.month, wholeFrom), lt(productStatsMonthly.month, wholeTo)));
  const days = db
    .select({
      productId: productStatsDaily.productId,
      units: productStatsDaily.units,
      salesCents: productStatsDaily.salesCents,
    })
    .from(productStatsDaily)
    .where(
      and(
        between(productStatsDaily.day, from, to),
        or(lt(productStatsDaily.day, wholeFrom), gte(productStatsDaily.day, wholeTo)),
      ),
    );
  const parts = months.unionAll(days).as("parts");
  const units = sql<number>`sum(${parts.units})`.mapWith(Number).as("units");
  return db
    .select({
      productId: parts.productId,
      units,
      salesCents: sql<number>`sum(${parts.salesCents})::float8`.mapWith(Number).as("sales_cents"),
    })
    .from(parts)
    .groupBy(parts.productId)
    .having(sql`sum(${parts.units}) > 0`)
    .orderBy(desc(units), asc(parts.productId))
    .limit(5)
    .as("top");
}

export async function readStats(db: Db, period: { from: string; to: string }): Promise<StatsReply> {
  const { from, to } = period;
  const dayInPeriod = between(orderStatsDaily.day, from, to);
  const paid = inArray(orderStatsDaily.status, [...PAID_STATUSES]);
  const topProducts = topProductsQuery(db, period);
  const [days, statuses, top, latestUsers] = await Promise.all([
    db
      .select({
        day: orderStatsDaily.day,
        salesCents: sum(orderStatsDaily.salesCents),
        orders: sum(orderStatsDaily.orders),
      })
      .from(orderStatsDaily)
      .where(and(dayInPeriod, paid))
      .groupBy(orderStatsDaily.day),
    db
      .select({ status: orderStatsDaily.status, count: sum(orderStatsDaily.orders) })
      .from(orderStatsDaily)
      .where(dayInPeriod)
      .groupBy(orderStatsDaily.status),
    db
      .select({
        productId: topProducts.productId,
        title: products.title,
        units: topProducts.units,
        salesCents: topProducts.salesCents,
      })
      .from(topProducts)
      .innerJoin(products, eq(products.id, topProducts.productId))
      .orderBy(desc(topProducts.units), asc(topProducts.productId)),
    db
      .select({
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        createdAt: users.createdAt,
      })
      .from(users)
      .where(and(eq(users.rol, "user"), isNull(users.deletedAt)))
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(5),
  ]);

  const byDay = new Map(days.map((row) => [row.day, row]));
  const salesByDay = [];
  for (let day = dayNumber(from); day <= dayNumber(to); day++) {
    const row = byDay.get(dateOf(day));
    salesByDay.push({ date: dateOf(day), sales: toDollars(row?.salesCents ?? 0), orders: row?.orders ?? 0 });
  }
  // Every status a purchase can be in, so the chart's bars stay put; others only when they occur.
  const counted = new Map<string, number>(statuses.map((row) => [row.status, row.count]));
  const ordersByStatus = [...new Set([...PAID_STATUSES, "cancelled", ...counted.keys()])].map((status) => ({
    status,
    count: counted.get(status) ?? 0,
  }));
  return {
    from,
    to,
    salesByDay,
    ordersByStatus,
    topProducts: top.map((row) => ({
      productId: row.productId,
      title: row.title,
      units: row.units,
      sales: toDollars(row.salesCents),
    })),
    latestUsers: latestUsers.map((user) => ({ ...user, createdAt: user.createdAt.toISOString() })),
  };
}

/**
 * Makes the summaries count days in the store's time zone (at start, STORE_TIMEZONE): when it changed, every
 * purchase moves to its day in the new zone. Orders are locked meanwhile so no change is counted twice or
 * missed. True when the summaries were recounted.
 */
export async function countStatsInTimeZone(db: Db, timeZone: string): Promise<boolean> {
  const [current] = await db.select({ timeZone: storeSettings.timeZone }).from(storeSettings);
  if (current?.timeZone === timeZone) return false;
  return db.transaction(async (tx) => {
    // The database must know the zone too, or every later payment would fail in the triggers.
    await tx.execute(sql`select now() at time zone ${timeZone}`);
    await tx.execute(sql`lock table orders, bulk_orders in share mode`);
    await tx.update(storeSettings).set({ timeZone }).where(eq(storeSettings.id, 1));
    await tx.execute(sql`select rebuild_order_stats()`);
    return true;
  });
}

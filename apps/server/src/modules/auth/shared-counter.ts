import { inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rateWindows } from "../../db/schema";

export interface Window {
  count: number;
  retryAfterSeconds: number;
}

/** Rows of windows that ended are deleted every this many writes of a process (cheap, by index). */
const SWEEP_EVERY = 500;

/**
 * Counts in fixed windows, kept in PostgreSQL (the unlogged `rate_windows`) so that every process on one
 * database counts the same attempts: N processes enforce exactly the limits of one. A
 * key's window starts at its first count and ends `windowSeconds` later; a count after it starts a new one.
 */
export class SharedWindowCounter {
  private writes = 0;

  constructor(
    private readonly db: Db,
    private readonly windowSeconds: number,
  ) {}

  /** The counts of these keys in their current windows (0 for a key with none). */
  async counts(keys: string[]): Promise<Map<string, Window>> {
    const rows = await this.db
      .select({
        key: rateWindows.key,
        count: rateWindows.count,
        retryAfterSeconds: sql<number>`ceil(extract(epoch from ${rateWindows.startedAt} + make_interval(secs => ${this.windowSeconds}) - now()))::int`,
      })
      .from(rateWindows)
      .where(
        sql`${inArray(rateWindows.key, keys)} and ${rateWindows.startedAt} > now() - make_interval(secs => ${this.windowSeconds})`,
      );
    const found = new Map(
      rows.map((row) => [
        row.key,
        { count: row.count, retryAfterSeconds: Math.max(1, row.retryAfterSeconds) },
      ]),
    );
    return new Map(keys.map((key) => [key, found.get(key) ?? { count: 0, retryAfterSeconds: 0 }]));
  }

  /** Adds `delta` (never below 0) to each key's window, starting a new window where the last one ended. */
  async add(keys: string[], delta: number): Promise<Map<string, Window>> {
    if (keys.length === 0) return new Map();
    const window = sql`make_interval(secs => ${this.windowSeconds})`;
    const current = sql`${rateWindows.startedAt} > now() - ${window}`;
    const rows = await this.db
      .insert(rateWindows)
      .values(keys.map((key) => ({ key, count: Math.max(0, delta), startedAt: sql`now()` })))
      .onConflictDoUpdate({
        target: rateWindows.key,
        set: {
          count: sql`case when ${current} then greatest(0, ${rateWindows.count} + ${delta}) else ${Math.max(0, delta)} end`,
          startedAt: sql`case when ${current} then ${rateWindows.startedAt} else now() end`,
        },
      })
      .returning({
        key: rateWindows.key,
        count: rateWindows.count,
        retryAfterSeconds: sql<number>`ceil(extract(epoch from ${rateWindows.startedAt} + ${window} - now()))::int`,
      });
    if (++this.writes % SWEEP_EVERY === 0) void this.sweep().catch(() => {});
    return new Map(
      rows.map((row) => [
        row.key,
        { count: row.count, retryAfterSeconds: Math.max(1, row.retryAfterSeconds) },
      ]),
    );
  }

  async reset(keys: string[]): Promise<void> {
    await this.db.delete(rateWindows).where(inArray(rateWindows.key, keys));
  }

  /** Forgets windows that ended (any process may; what it deletes no one counts any more). */
  async sweep(): Promise<void> {
    await this.db
      .delete(rateWindows)
      .where(lt(rateWindows.startedAt, sql`now() - make_interval(secs => ${this.windowSeconds})`));
  }
}

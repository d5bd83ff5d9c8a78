import { randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Db } from "./client";

/**
 * What changed, as migrations 0015–0017's triggers NOTIFY it on channel voltio_changes:
 * - products / stock: products' listing fields (words, prices, pictures, categories, retirement) or their
 *   stock and ratings alone, by id; without ids when more changed at once than one notification names;
 * - categories: their names; links: every product's categories (many changed at once);
 * - reference: sales, networks, store settings: what replies show beside the products;
 * - holds: a checkout's holds (what replies show for sale, not the shelf);
 * - catalog: anything (sent by hand, or a missed notification): every copy goes.
 */
export type Change =
  | { kind: "catalog" | "categories" | "links" | "reference" | "holds" }
  | { kind: "products" | "stock"; ids?: number[] };

const WHOLE = new Set(["catalog", "categories", "links", "reference", "holds"]);

/** A notification's payload as a Change; anything else (another tool's, a sync token) is not one. */
export function parseChange(payload: string): Change | undefined {
  if (WHOLE.has(payload)) return { kind: payload as "catalog" };
  const [kind, list] = payload.split(":", 2);
  if (kind !== "products" && kind !== "stock") return undefined;
  if (list === undefined) return { kind };
  const ids = list.split(",").map(Number);
  // A malformed list can't say which products: all of them, to be safe.
  return ids.every((id) => Number.isSafeInteger(id) && id > 0) ? { kind, ids } : { kind };
}

export interface ChangeFeed {
  /** Notifications reach this process (its LISTEN connection is up). */
  connected(): boolean;
  /**
   * Resolves once every change committed before the call has reached this process: true, or false when that
   * can't be known (no connection, or no answer within 2 s).
   */
  caughtUp(): Promise<boolean>;
  close(): Promise<void>;
}

const CHANNEL = "voltio_changes";
/** Capped at 2 s: a process serves stale copies until it listens again, so it must notice the database's return at once. */
const RETRY_MS = [250, 500, 1000, 2000];
const CAUGHT_UP_WAIT_MS = 2000;

interface FeedOptions {
  onChange: (change: Change) => void;
  /** Notifications may have been lost: every copy goes. */
  onMissed: () => void;
  log: { warn: (object: object, message: string) => void };
}

/**
 * Every process LISTENs (ADR 0014): on PostgreSQL, on one connection of its own, for what
 * other processes, this one or SQL by hand changed; on the embedded database, which delivers a transaction's
 * notifications as it commits, on the one connection there is.
 */
export async function listenForChanges(
  db: Db,
  url: string | undefined,
  options: FeedOptions,
): Promise<ChangeFeed | undefined> {
  if (url) return listenOnPostgres(url, options);
  const client = (db as unknown as { $client?: Partial<PGlite> }).$client;
  if (!client?.listen) return undefined;
  const unlisten = await client.listen(CHANNEL, (payload) => {
    const change = parseChange(payload);
    if (change) options.onChange(change);
  });
  return {
    connected: () => true,
    // Delivered before the writing query's promise resolves: a write that returned was applied.
    caughtUp: () => Promise.resolve(true),
    close: () => unlisten().catch(() => {}),
  };
}

/** A lost connection is opened again; notifications sent meanwhile are lost, so `onMissed` drops every copy. */
function listenOnPostgres(url: string, options: FeedOptions): ChangeFeed {
  let client: pg.Client | undefined;
  let up = false;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  // caughtUp() NOTIFYs a token of this process and waits for it: PostgreSQL delivers notifications in the order
  // their transactions committed, so every earlier change has come when the token does.
  const tokenPrefix = `sync:${randomBytes(6).toString("hex")}:`;
  let tokens = 0;
  const waiting = new Map<string, (heard: boolean) => void>();
  const giveUpWaiting = () => {
    for (const resolve of [...waiting.values()]) resolve(false);
  };

  async function connect(reconnecting: boolean) {
    const next = new pg.Client({ connectionString: url, application_name: "voltio-listen" });
    const lost = (error?: Error) => {
      if (client !== next) return;
      up = false;
      client = undefined;
      giveUpWaiting();
      void next.end().catch(() => {});
      if (closed) return;
      options.log.warn({ error: error?.message }, "the change notifications' connection was lost");
      schedule();
    };
    client = next;
    next.on("error", lost);
    next.on("end", () => lost());
    next.on("notification", ({ payload = "" }) => {
      if (payload.startsWith(tokenPrefix)) {
        waiting.get(payload)?.(true);
        return;
      }
      const change = parseChange(payload);
      if (change) options.onChange(change);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      if (client !== next) return;
      up = true;
      attempt = 0;
      // What was written while nobody listened is unknown: every copy goes.
      if (reconnecting) options.onMissed();
    } catch (error) {
      lost(error as Error);
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(() => void connect(true), RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
    timer.unref();
  }

  void connect(false);
  return {
    connected: () => up,
    caughtUp() {
      const current = client;
      if (!up || !current) return Promise.resolve(false);
      const token = `${tokenPrefix}${++tokens}`;
      return new Promise<boolean>((resolve) => {
        const answer = (heard: boolean) => {
          clearTimeout(timeout);
          waiting.delete(token);
          resolve(heard);
        };
        const timeout = setTimeout(() => answer(false), CAUGHT_UP_WAIT_MS);
        waiting.set(token, answer);
        current.query("select pg_notify($1, $2)", [CHANNEL, token]).catch(() => answer(false));
      });
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      giveUpWaiting();
      const last = client;
      client = undefined;
      up = false;
      await last?.end().catch(() => {});
    },
  };
}

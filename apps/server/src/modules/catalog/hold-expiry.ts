import type { Db } from "../../db/client";
import { nextHoldExpiry } from "../inventory/stock";

/**
 * A hold that ends writes nothing (inventory/stock.ts: it just stops counting), so no notification tells any
 * process's caches, which kept showing the units as taken until their replies' TTL. Each
 * process asks the database when the next hold ends — at start, and after every 'holds' notification, which
 * every process gets for every process's holds (db/changes.ts) — and drops its hold-affected copies at that
 * moment. Nothing is asked per request: the listings cost what they did.
 */

/** Past the expiry by the database's clock, so that a reply computed after the drop no longer counts it. */
const MARGIN_MS = 20;
/** A storm of 'holds' notifications (checkouts under load) asks at most this often. */
const MIN_GAP_MS = 100;
const RETRY_MS = 5000;
/** setTimeout's longest delay; a later expiry is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface HoldExpiryWatch {
  /** Holds changed, or notifications may have been lost: ask again when the next one ends. */
  changed(): void;
  close(): Promise<void>;
}

export function watchHoldExpiries(options: {
  db: Db;
  onExpired: () => void;
  log: { warn: (object: object, message: string) => void };
}): HoldExpiryWatch {
  const { db, onExpired, log } = options;
  /**
   * Expiries up to here (the database's clock) were acted on; only later ones are asked for, so one that
   * passed while a question was on its way is still found, and none is acted on twice.
   */
  let handledThrough: number | null = null;
  /** The database's clock less this process's, as last measured (low by the query's time: a timer fires late). */
  let offset = 0;
  let expiry: { at: number; timer: NodeJS.Timeout } | undefined;
  let asking: Promise<void> | undefined;
  let askAgain = false;
  let lastAsked = -Infinity;
  let askTimer: NodeJS.Timeout | undefined;
  let failing = false;
  let closed = false;

  const databaseNow = () => Date.now() + offset;

  function arm(at: number | null) {
    clearTimeout(expiry?.timer);
    expiry = undefined;
    if (at === null || closed) return;
    const delay = Math.min(Math.max(0, at + MARGIN_MS - databaseNow()), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      // A timer may fire a little early (the event loop's clock), or this was a very far expiry: not yet.
      if (databaseNow() < at + MARGIN_MS) return arm(at);
      expiry = undefined;
      handledThrough = Math.max(handledThrough ?? 0, databaseNow());
      onExpired();
      changed();
    }, delay);
    timer.unref();
    expiry = { at, timer };
  }

  async function ask() {
    lastAsked = Date.now();
    try {
      const found = await nextHoldExpiry(db, handledThrough);
      if (closed) return;
      failing = false;
      offset = found.now - Date.now();
      handledThrough ??= found.now;
      // The timer fired while the question was on its way: what it found may be handled already.
      if (found.next !== null && found.next <= handledThrough) askAgain = true;
      else arm(found.next);
    } catch (error) {
      if (closed) return;
      if (!failing) log.warn({ error: (error as Error).message }, "the next hold expiry could not be read");
      failing = true;
      clearTimeout(askTimer);
      askTimer = setTimeout(() => {
        askTimer = undefined;
        changed();
      }, RETRY_MS);
      askTimer.unref();
    }
  }

  function changed() {
    if (closed) return;
    if (asking) {
      askAgain = true;
      return;
    }
    if (askTimer) return;
    const start = () => {
      askTimer = undefined;
      asking = ask().finally(() => {
        asking = undefined;
        if (askAgain) {
          askAgain = false;
          changed();
        }
      });
    };
    const wait = lastAsked + MIN_GAP_MS - Date.now();
    if (wait <= 0) return start();
    askTimer = setTimeout(start, wait);
    askTimer.unref();
  }

  changed();
  return {
    changed,
    async close() {
      closed = true;
      clearTimeout(askTimer);
      clearTimeout(expiry?.timer);
      await asking;
    },
  };
}

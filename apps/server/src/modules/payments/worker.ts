import type { Db } from "../../db/client";
import type { PaymentProvider } from "../../integrations/payments/provider";
import type { WorkerMetrics } from "../metrics/registry";
import { startPollingWorker, type PollingWorker, type WorkerLog } from "../../workers/polling-worker";
import { runDueRefunds } from "./refunds";
import { claimStaleCheckouts, recheckCheckout, type Settled } from "./settlement";

/**
 * The payments worker, in every process: sends the refunds that are due and asks
 * the provider about open checkouts nobody has heard of for a minute (a closed tab, a lost webhook), so
 * nothing paid is left behind. Work is claimed with SKIP LOCKED, so processes share it without doubling it;
 * the loop (timer, notify, backoff while the database is away, stop) is workers/polling-worker.ts's.
 * runOnce() is one round: refunds due, then stale checkouts; notify() says a refund was queued (and
 * committed): send it now rather than at the next poll.
 */
export type PaymentsWorker = PollingWorker<{ refunds: number; rechecked: number }>;

export interface PaymentsWorkerOptions {
  db: Db;
  provider: PaymentProvider;
  log: WorkerLog;
  /** Poll every this many ms (0: never on a timer). */
  pollMs: number;
  /** Run by itself (on the timer and when notified); tests leave it off and call runOnce. */
  background: boolean;
  /** The wait between failed rounds grows up to this (default: polling-worker.ts's MAX_BACKOFF_MS). */
  maxBackoffMs?: number;
  metrics?: WorkerMetrics;
  /** After a round that settled payments: stock moved, mail queued. */
  onSettled?: (settled: Settled) => void;
  /** STORE_TIMEZONE: the local date of the purchases a re-check settles. */
  storeTimeZone?: string;
}

export function startPaymentsWorker({
  db,
  provider,
  log,
  onSettled,
  storeTimeZone,
  ...loop
}: PaymentsWorkerOptions): PaymentsWorker {
  return startPollingWorker({
    name: "payments",
    log,
    ...loop,
    async round() {
      const refunds = await runDueRefunds(db, provider, log);
      let rechecked = 0;
      for (const checkout of await claimStaleCheckouts(db)) {
        try {
          const settled = await recheckCheckout(db, provider, checkout, { expire: true, storeTimeZone });
          if (settled) onSettled?.(settled);
          rechecked++;
        } catch (error) {
          log.warn({ checkout: checkout.id, error: (error as Error).message }, "checkout re-check failed");
        }
      }
      // A refund queued by a re-check goes out in the same round.
      return { refunds: refunds + (rechecked ? await runDueRefunds(db, provider, log) : 0), rechecked };
    },
  });
}

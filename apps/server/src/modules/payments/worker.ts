import type { Db } from "../../db/client";
import type { PaymentProvider } from "../../integrations/payments/provider";
import { runDueRefunds } from "./refunds";
import { claimStaleCheckouts, recheckCheckout, type Settled } from "./settlement";

/**
 * The payments worker (issue 21 points 3 and 5), in every process: sends the refunds that are due and asks
 * the provider about open checkouts nobody has heard of for a minute (a closed tab, a lost webhook), so
 * nothing paid is left behind. Work is claimed with SKIP LOCKED, so processes share it without doubling it.
 */
export interface PaymentsWorker {
  /** One round: refunds due, then stale checkouts. */
  runOnce(): Promise<{ refunds: number; rechecked: number }>;
  /** A refund was queued (and committed): send it now rather than at the next poll. */
  notify(): void;
  stop(): Promise<void>;
}

export interface PaymentsWorkerOptions {
  db: Db;
  provider: PaymentProvider;
  log: { warn: (object: object, message: string) => void };
  /** Poll every this many ms (0: never on a timer). */
  pollMs: number;
  /** Run by itself (on the timer and when notified); tests leave it off and call runOnce. */
  background: boolean;
  /** After a round that settled payments: stock moved, mail queued. */
  onSettled?: (settled: Settled) => void;
}

export function startPaymentsWorker({
  db,
  provider,
  log,
  pollMs,
  background,
  onSettled,
}: PaymentsWorkerOptions): PaymentsWorker {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  async function round() {
    const refunds = await runDueRefunds(db, provider, log);
    let rechecked = 0;
    for (const checkout of await claimStaleCheckouts(db)) {
      try {
        const settled = await recheckCheckout(db, provider, checkout, { expire: true });
        if (settled) onSettled?.(settled);
        rechecked++;
      } catch (error) {
        log.warn({ checkout: checkout.id, error: (error as Error).message }, "checkout re-check failed");
      }
    }
    // A refund queued by a re-check goes out in the same round.
    return { refunds: refunds + (rechecked ? await runDueRefunds(db, provider, log) : 0), rechecked };
  }

  /** Rounds never overlap in one process; a notify during a round runs one more. */
  function runOnce() {
    const next = running.then(round, round);
    running = next.catch((error: unknown) => {
      log.warn({ error: (error as Error).message }, "payments worker round failed");
    });
    return next;
  }

  function schedule() {
    if (stopped || !background || pollMs <= 0) return;
    // The round's failure is logged by runOnce: passed on here it was an unhandled rejection, and Node exited
    // when the database went away for a moment (issue 38).
    timer = setTimeout(
      () =>
        void runOnce()
          .catch(() => {})
          .finally(schedule),
      pollMs,
    );
    timer.unref();
  }
  schedule();

  return {
    runOnce,
    notify() {
      if (stopped || !background || again) return;
      again = true;
      void running.then(() => {
        again = false;
        if (!stopped) void runOnce().catch(() => {});
      });
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

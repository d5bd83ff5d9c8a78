import type { Db } from "../../db/client";
import { notifyRestocked } from "./service";

/**
 * Runs the back-in-stock sweep (service.ts) in every process: right after an admin's product write, when the
 * change feed says stock or holds moved (a cancelled or refunded purchase puts units back, a checkout lets
 * its hold go), and on a timer for what nothing announces (a hold that simply expired). The sweep claims
 * with SKIP LOCKED, so processes share the work without sending twice.
 */
/** How often each process sweeps in the background (a hold that expired announces nothing). */
export const STOCK_ALERT_SWEEP_MS = 30_000;

export interface StockAlertWorker {
  /** One sweep now (rounds never overlap in a process); resolves with the e-mails queued, 0 when it failed. */
  sweep(): Promise<number>;
  /** Stock may have risen: sweep soon (in the background only). */
  notify(): void;
  stop(): Promise<void>;
}

export interface StockAlertWorkerOptions {
  db: Db;
  /** The store's public address: the e-mails link to its product pages. */
  storeUrl: string;
  log: { warn: (object: object, message: string) => void };
  /** Sweep every this many ms in the background. */
  pollMs: number;
  /** Run by itself (timer, notifications); tests leave it off and call sweep. */
  background: boolean;
  /** A sweep queued e-mails (committed): wake the mail worker. */
  onQueued?: () => void;
}

export function startStockAlertWorker({
  db,
  storeUrl,
  log,
  pollMs,
  background,
  onQueued,
}: StockAlertWorkerOptions): StockAlertWorker {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  async function round(): Promise<number> {
    try {
      const queued = await notifyRestocked(db, storeUrl);
      if (queued > 0) onQueued?.();
      return queued;
    } catch (error) {
      // The next round tries again: requests stay open until their mail is queued.
      log.warn({ error: (error as Error).message }, "back-in-stock sweep failed");
      return 0;
    }
  }

  function sweep() {
    const next = running.then(round, round);
    running = next;
    return next;
  }

  function schedule() {
    if (stopped || !background || pollMs <= 0) return;
    timer = setTimeout(() => void sweep().finally(schedule), pollMs);
    timer.unref();
  }
  schedule();

  return {
    sweep,
    notify() {
      // Many notifications during a round make one more round, not one each.
      if (stopped || !background || again) return;
      again = true;
      void running.then(() => {
        again = false;
        if (!stopped) void sweep();
      });
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

import type { Db } from "../../db/client";
import type { WorkerMetrics } from "../metrics/registry";
import { startPollingWorker, type WorkerLog } from "../../workers/polling-worker";
import { notifyRestocked } from "./service";

/**
 * Runs the back-in-stock sweep (service.ts) in every process: right after an admin's product write, when the
 * change feed says stock or holds moved (a cancelled or refunded purchase puts units back, a checkout lets
 * its hold go), and on a timer for what nothing announces (a hold that simply expired). The sweep claims
 * with SKIP LOCKED, so processes share the work without sending twice; the loop (timer, notify, backoff
 * while the database is away, stop) is workers/polling-worker.ts's.
 */
/** How often each process sweeps in the background (a hold that expired announces nothing). */
export const STOCK_ALERT_SWEEP_MS = 30_000;

export interface StockAlertWorker {
  /**
   * One sweep now (rounds never overlap in a process); resolves with the e-mails queued, 0 when it failed
   * (logged: the requests stay open until their mail is queued, and the next round tries again).
   */
  sweep(): Promise<number>;
  /** Stock may have risen: sweep soon (in the background only). */
  notify(): void;
  stop(): Promise<void>;
}

export interface StockAlertWorkerOptions {
  db: Db;
  /** The store's public address: the e-mails link to its product pages. */
  storeUrl: string;
  log: WorkerLog;
  /** Sweep every this many ms in the background. */
  pollMs: number;
  /** Run by itself (timer, notifications); tests leave it off and call sweep. */
  background: boolean;
  /** The wait between failed rounds grows up to this (default: polling-worker.ts's MAX_BACKOFF_MS). */
  maxBackoffMs?: number;
  metrics?: WorkerMetrics;
  /** A sweep queued e-mails (committed): wake the mail worker. */
  onQueued?: () => void;
}

export function startStockAlertWorker({
  db,
  storeUrl,
  onQueued,
  ...loop
}: StockAlertWorkerOptions): StockAlertWorker {
  const worker = startPollingWorker({
    name: "stock-alerts",
    ...loop,
    async round() {
      const queued = await notifyRestocked(db, storeUrl);
      if (queued > 0) onQueued?.();
      return queued;
    },
  });
  return {
    sweep: () => worker.runOnce().catch(() => 0),
    notify: worker.notify,
    stop: worker.stop,
  };
}

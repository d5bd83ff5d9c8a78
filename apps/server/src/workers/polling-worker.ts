import type { WorkerMetrics } from "../modules/metrics/registry";

/**
 * The one loop behind every background worker (mail, payments, stock alerts; ADR 0019): the work is rows that
 * each round claims with FOR UPDATE SKIP LOCKED, so processes share it without doubling it, and this only
 * decides when a process runs a round. Rounds never overlap in a process; notify() coalesces into one more
 * round; a round that throws (the database is away for a moment) is logged once and counted, never rejects
 * into a timer, and the next round waits longer, doubling from pollMs up to a cap, until one succeeds; stop()
 * waits for the round in hand.
 */
export interface PollingWorker<T> {
  /**
   * One round now, after the one in hand: resolves with its result or rejects with its error (which is also
   * logged and counted, as for a round the worker ran by itself).
   */
  runOnce(): Promise<T>;
  /** Work was just committed: run a round soon rather than at the next poll (in the background only). */
  notify(): void;
  /** No more rounds on the timer or by notify(); resolves once the round in hand has finished. */
  stop(): Promise<void>;
}

/** The longest wait between two rounds while they keep failing (unless pollMs is longer). */
export const MAX_BACKOFF_MS = 60_000;

/** pino's call shape, as app.log has it. */
export interface WorkerLog {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

export interface PollingWorkerOptions<T> {
  /** Names the worker in its logs and its metrics' `worker` label: mail, payments, stock-alerts. */
  name: string;
  /**
   * One round of work. The signal is aborted by stop(): a round that takes item after item checks it between
   * two, so stopping waits for the item in hand only.
   */
  round: (signal: AbortSignal) => Promise<T>;
  /** The wait after a good round (0: no timer; rounds when notified or called). */
  pollMs: number;
  /** Run by itself, on the timer and when notified; off (tests), rounds run only when runOnce() is called. */
  background: boolean;
  /** The first round right at start (work left from before a restart), not pollMs after it. */
  roundAtStart?: boolean;
  /** The cap on the wait after failed rounds (default MAX_BACKOFF_MS; never shorter than pollMs). */
  maxBackoffMs?: number;
  log: WorkerLog;
  /** Counted into the app's registry (modules/metrics/registry.ts); a worker a test starts may go without. */
  metrics?: WorkerMetrics;
}

/** The wait before the next round after `failures` failed rounds in a row: pollMs, then doubling to the cap. */
export function backoffMs(pollMs: number, failures: number, maxBackoffMs = MAX_BACKOFF_MS): number {
  if (failures <= 0) return pollMs;
  return Math.min(pollMs * 2 ** Math.min(failures, 30), Math.max(maxBackoffMs, pollMs));
}

/** An error in one line: its message, with its code when the message doesn't say it (ECONNREFUSED…). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code } = error as { code?: unknown };
  // A refused connection to a host with several addresses is an AggregateError with no message of its own.
  const text =
    error.message ||
    (error instanceof AggregateError ? error.errors.map(describeError).join("; ") : "") ||
    error.name;
  return typeof code === "string" && !text.includes(code) ? `${code}: ${text}` : text;
}

export function startPollingWorker<T>({
  name,
  round,
  pollMs,
  background,
  roundAtStart = false,
  maxBackoffMs = MAX_BACKOFF_MS,
  log,
  metrics,
}: PollingWorkerOptions<T>): PollingWorker<T> {
  const stopping = new AbortController();
  const label = { worker: name };
  const timed = background && pollMs > 0;
  /** Every round, one after the other: runOnce() calls and the background's alike. */
  let chain: Promise<unknown> = Promise.resolve();
  /** The background's rounds in progress, and whether it was notified meanwhile (one more round). */
  let pass: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;

  metrics?.rounds.inc({ ...label, outcome: "ok" }, 0);
  metrics?.rounds.inc({ ...label, outcome: "failed" }, 0);
  metrics?.consecutiveFailures.set(label, 0);

  async function attempt(): Promise<T> {
    let result: T;
    try {
      result = await round(stopping.signal);
    } catch (error) {
      failures++;
      metrics?.rounds.inc({ ...label, outcome: "failed" });
      metrics?.consecutiveFailures.set(label, failures);
      log.warn(
        {
          ...label,
          error: describeError(error),
          failures,
          ...(timed && { retryInMs: backoffMs(pollMs, failures, maxBackoffMs) }),
        },
        `${name} worker round failed`,
      );
      throw error;
    }
    if (failures > 0) log.info({ ...label, failures }, `${name} worker recovered`);
    failures = 0;
    metrics?.rounds.inc({ ...label, outcome: "ok" });
    metrics?.consecutiveFailures.set(label, 0);
    metrics?.lastSuccess.set(label, Date.now() / 1000);
    return result;
  }

  function runOnce(): Promise<T> {
    const next = chain.then(attempt);
    chain = next.catch(() => {});
    return next;
  }

  function wake() {
    if (stopping.signal.aborted) return;
    if (pass) {
      again = true;
      return;
    }
    clearTimeout(timer);
    pass = (async () => {
      do {
        again = false;
        // Already logged and counted by attempt(): passed on, it was an unhandled rejection that ended the
        // process when PostgreSQL restarted.
        await runOnce().catch(() => {});
      } while (again && !stopping.signal.aborted);
    })().finally(() => {
      pass = undefined;
      schedule();
    });
  }

  function schedule() {
    if (!timed || stopping.signal.aborted) return;
    timer = setTimeout(wake, backoffMs(pollMs, failures, maxBackoffMs)).unref();
  }

  if (background && roundAtStart) wake();
  else schedule();

  return {
    runOnce,
    notify() {
      if (background) wake();
    },
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await pass;
      await chain;
    },
  };
}

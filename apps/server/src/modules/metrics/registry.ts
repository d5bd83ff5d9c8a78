import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { FastifyInstance } from "fastify";
import type { LoadSheddingState } from "../../http/load-shedding";
import { unhandledRejections } from "../../process-faults";

/**
 * What an operator graphs and alerts on, in Prometheus' text format: one registry per app
 * (tests build many apps in one process). Counters are counted where things happen; gauges of what the
 * database holds are read when Prometheus scrapes.
 */
export interface StoreMetrics {
  registry: Registry;
  /** A settlement's outcome (approved, rejected, refund_needed…), from the return page, a webhook or a re-check. */
  settled: Counter<"outcome">;
  /** Pay: a checkout opened or reused, or refused before any payment. */
  checkouts: Counter<"outcome">;
  /** A provider's notification: settled, ignored (not this store's) or refused (bad signature, bad body). */
  webhooks: Counter<"outcome">;
  /** The background workers' rounds (workers/polling-worker.ts). */
  workers: WorkerMetrics;
}

/** What every polling worker counts, labelled with its name (mail, payments, stock-alerts). */
export interface WorkerMetrics {
  /** Rounds by outcome: ok, or failed (it threw: the database away, a bug). */
  rounds: Counter<"worker" | "outcome">;
  /** Failed rounds since the last good one: 0 while all is well. */
  consecutiveFailures: Gauge<"worker">;
  /** When the last good round ended, in Unix seconds (absent until the first one). */
  lastSuccess: Gauge<"worker">;
}

export function createWorkerMetrics(registry: Registry): WorkerMetrics {
  return {
    rounds: new Counter({
      name: "voltio_worker_rounds_total",
      help: "Background workers' rounds (mail, payments, stock-alerts), by outcome: ok or failed",
      labelNames: ["worker", "outcome"],
      registers: [registry],
    }),
    consecutiveFailures: new Gauge({
      name: "voltio_worker_consecutive_failures",
      help: "Failed rounds of each background worker since its last good one (it backs off meanwhile)",
      labelNames: ["worker"],
      registers: [registry],
    }),
    lastSuccess: new Gauge({
      name: "voltio_worker_last_success_timestamp_seconds",
      help: "When each background worker's last good round ended, in Unix seconds",
      labelNames: ["worker"],
      registers: [registry],
    }),
  };
}

export function createMetrics(collect: {
  searchIndex: () => { products: number; lastBuildSeconds: number; lastUpdateSeconds: number };
  mailOutbox: () => Promise<{ status: string; count: number }[]>;
  pool: () => { total: number; idle: number; waiting: number } | null;
  /** Requests refused with 503 because the process was overloaded, and the event loop's delay (http/load-shedding.ts). */
  loadShedding: () => LoadSheddingState;
}): StoreMetrics {
  const registry = new Registry();
  new Gauge({
    name: "voltio_react_build_info",
    help: "1, labelled with the React build that renders the pages: production unless NODE_ENV says otherwise",
    labelNames: ["build"],
    registers: [registry],
    collect() {
      this.reset();
      this.set({ build: process.env.NODE_ENV === "production" ? "production" : "development" }, 1);
    },
  });
  new Counter({
    name: "voltio_requests_shed_total",
    help: "Requests refused with 503 and Retry-After because this process was overloaded: reason event_loop_delay, heap or in_flight",
    labelNames: ["reason"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(collect.loadShedding().shed)) this.inc({ reason }, count);
    },
  });
  new Gauge({
    name: "voltio_event_loop_delay_seconds",
    help: "Mean delay of this process's event loop over the last half second, as load shedding compares it with MAX_EVENT_LOOP_DELAY_MS (0 while that is 0)",
    registers: [registry],
    collect() {
      const delayMs = collect.loadShedding().eventLoopDelayMs;
      if (delayMs !== undefined) this.set(delayMs / 1000);
    },
  });
  new Counter({
    name: "voltio_unhandled_rejections_total",
    help: "Promises this process rejected with nobody to handle it: each is a bug, logged with its stack",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(unhandledRejections());
    },
  });
  new Gauge({
    name: "voltio_http_requests_in_flight",
    help: "Requests this process is answering now (health and metrics aside), as load shedding compares it with MAX_REQUESTS_IN_FLIGHT",
    registers: [registry],
    collect() {
      this.set(collect.loadShedding().inFlight);
    },
  });
  new Gauge({
    name: "voltio_process_memory_bytes",
    help: "This process's memory: resident (rss), V8's heap (heap_total, heap_used), and outside it (external, array_buffers)",
    labelNames: ["kind"],
    registers: [registry],
    collect() {
      const usage = process.memoryUsage();
      this.set({ kind: "rss" }, usage.rss);
      this.set({ kind: "heap_total" }, usage.heapTotal);
      this.set({ kind: "heap_used" }, usage.heapUsed);
      this.set({ kind: "external" }, usage.external);
      this.set({ kind: "array_buffers" }, usage.arrayBuffers);
    },
  });
  new Gauge({
    name: "voltio_search_index_products",
    help: "Products in this process's search index",
    registers: [registry],
    collect() {
      this.set(collect.searchIndex().products);
    },
  });
  new Gauge({
    name: "voltio_search_index_build_seconds",
    help: "How long this process's last full build of the search index took",
    registers: [registry],
    collect() {
      this.set(collect.searchIndex().lastBuildSeconds);
    },
  });
  new Gauge({
    name: "voltio_search_index_update_seconds",
    help: "How long this process took to apply the last change to its search index (products changed in place)",
    registers: [registry],
    collect() {
      this.set(collect.searchIndex().lastUpdateSeconds);
    },
  });
  new Gauge({
    name: "voltio_mail_outbox_messages",
    help: "Messages in the mail outbox by status (queued, sending, sent, failed)",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { status, count } of await collect.mailOutbox()) this.set({ status }, count);
    },
  });
  new Gauge({
    name: "voltio_db_pool_connections",
    help: "PostgreSQL connections of this process's pool: total, idle, and requests waiting for one",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const pool = collect.pool();
      if (!pool) return;
      this.set({ state: "total" }, pool.total);
      this.set({ state: "idle" }, pool.idle);
      this.set({ state: "waiting" }, pool.waiting);
    },
  });
  return {
    registry,
    settled: new Counter({
      name: "voltio_payments_settled_total",
      help: "Payments the store heard of, by what it decided",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    checkouts: new Counter({
      name: "voltio_checkouts_total",
      help: "Pay presses: a checkout made (or the open one reused), or refused before any payment",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    webhooks: new Counter({
      name: "voltio_payment_webhooks_total",
      help: "Providers' notifications, by what became of them",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    workers: createWorkerMetrics(registry),
  };
}

/** Requests by route pattern, method and status, with their duration; catalogue cache hits and misses. */
export function countRequests(app: FastifyInstance, registry: Registry) {
  const requests = new Histogram({
    name: "voltio_http_request_duration_seconds",
    help: "HTTP requests by route pattern, method and status, and how long they took",
    labelNames: ["route", "method", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const cache = new Counter({
    name: "voltio_catalog_cache_total",
    help: "Catalogue replies by where they came from: hit, miss or joined (waited for the same computation)",
    labelNames: ["result"],
    registers: [registry],
  });
  app.addHook("onResponse", (request, reply, done) => {
    // The route's pattern, never the URL: ids and queries would make a series per request.
    const route = request.routeOptions.url ?? "unmatched";
    requests.observe(
      { route, method: request.method, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    const from = reply.getHeader("x-cache");
    if (typeof from === "string") cache.inc({ result: from });
    done();
  });
}

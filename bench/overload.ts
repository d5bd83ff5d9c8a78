/**
 * `npm run bench:overload`: what load shedding does for a server asked for more than it can
 * do. One server process on a fresh PostgreSQL database of BENCH_PRODUCTS products, its reply cache off so that
 * every listing costs what an uncached one does. First its sustainable rate: the uncached listing at
 * BENCH_CONNECTIONS connections (closed loop: each sends its next request once answered), which must see no 503.
 * Then BENCH_FACTOR times that rate offered by BENCH_OVERLOAD_CONNECTIONS connections (autocannon's overallRate),
 * once with the shipped load-shedding settings plus an event-loop limit of 200 ms (off by default) and once, on a
 * new process, with shedding off (every limit 0):
 * the served requests' latency, the 503s and theirs, the timeouts (no answer within
 * BENCH_TIMEOUT_SECONDS). /api/metrics is read every second meanwhile for the event loop's delay. Writes
 * docs/benchmarks.md.
 *
 * Knobs for a smoke run (which leaves docs/benchmarks.md alone): BENCH_PRODUCTS (100000), BENCH_SECONDS (20),
 * BENCH_CONNECTIONS (50), BENCH_OVERLOAD_CONNECTIONS (1000), BENCH_FACTOR (3), BENCH_TIMEOUT_SECONDS (10).
 * PostgreSQL as for bench:catalog.
 */
import { cpus } from "node:os";
import autocannon from "autocannon";
import { replaceSection } from "./report";
import { startBenchServer, type BenchServer } from "./server";
import { freshDemoDatabase, generateProducts, knob, reportWanted, serverEnv } from "./setup";
import { untilReady } from "./process";

const PRODUCTS = knob("BENCH_PRODUCTS", 100_000, 59);
const SECONDS = knob("BENCH_SECONDS", 20, 1);
const CONNECTIONS = knob("BENCH_CONNECTIONS", 50, 1);
const OVERLOAD_CONNECTIONS = knob("BENCH_OVERLOAD_CONNECTIONS", 1000, 1);
const FACTOR = knob("BENCH_FACTOR", 3, 1);
const TIMEOUT_SECONDS = knob("BENCH_TIMEOUT_SECONDS", 10, 1);
const REPORT = reportWanted([
  "BENCH_PRODUCTS",
  "BENCH_SECONDS",
  "BENCH_CONNECTIONS",
  "BENCH_OVERLOAD_CONNECTIONS",
  "BENCH_FACTOR",
  "BENCH_TIMEOUT_SECONDS",
]);
const PATH = "/api/products?offset=1";
const METRICS_TOKEN = "bench-metrics-token-0123456789";

/** The p-th percentile (0–100) of `values`, nearest rank; 0 without values. */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

interface Run {
  offered: number;
  /** Replies per second of any status. */
  answered: number;
  served: number[];
  shed: number[];
  /** Other statuses than 200 and 503. */
  other: number;
  timeouts: number;
  errors: number;
  /** The event loop's delay, ms, at each second's reading of /api/metrics: the highest. */
  maxDelayMs: number;
}

async function eventLoopDelayMs(server: BenchServer): Promise<number> {
  const text = await (
    await fetch(`${server.base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  return 1000 * Number(/^voltio_event_loop_delay_seconds (\S+)$/m.exec(text)?.[1] ?? 0);
}

/** `connections` connections for SECONDS, at most `rate` requests a second in all (none: as fast as answered). */
async function drive(server: BenchServer, connections: number, rate?: number): Promise<Run> {
  const served: number[] = [];
  const shed: number[] = [];
  let other = 0;
  let maxDelayMs = 0;
  const sampler = setInterval(() => {
    void eventLoopDelayMs(server).then(
      (delay) => (maxDelayMs = Math.max(maxDelayMs, delay)),
      () => {},
    );
  }, 1000);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${server.base}${PATH}`,
        connections,
        duration: SECONDS,
        timeout: TIMEOUT_SECONDS,
        ...(rate ? { overallRate: rate } : {}),
      },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode === 200) served.push(responseTime);
      else if (statusCode === 503) shed.push(responseTime);
      else other++;
    });
  });
  clearInterval(sampler);
  server.assertRunning();
  return {
    offered: rate ?? 0,
    answered: Math.round(result.requests.total / SECONDS),
    served,
    shed,
    other,
    timeouts: result.timeouts,
    errors: result.errors,
    maxDelayMs,
  };
}

async function withServer<T>(
  databaseUrl: string,
  env: Record<string, string>,
  use: (server: BenchServer) => Promise<T>,
): Promise<T> {
  const server = await startBenchServer({
    ...serverEnv(databaseUrl),
    CATALOG_CACHE_TTL_SECONDS: "0",
    METRICS_TOKEN,
    ...env,
  });
  try {
    await untilReady(server.base, 180_000);
    await autocannon({ url: `${server.base}${PATH}`, connections: 10, duration: 3 }); // JIT, pool
    return await use(server);
  } finally {
    await server.stop();
  }
}

const databaseUrl = await freshDemoDatabase("voltio_bench_overload", generateProducts(PRODUCTS));
// The event-loop limit is off by default: on here, so its delay is read and would refuse too.
const ON = { MAX_EVENT_LOOP_DELAY_MS: "200" };
const { sustainable, shedding } = await withServer(databaseUrl, ON, async (server) => {
  const sustainable = await drive(server, CONNECTIONS);
  console.log("sustainable", summary(sustainable));
  const rate = FACTOR * Math.round(sustainable.served.length / SECONDS);
  const shedding = await drive(server, OVERLOAD_CONNECTIONS, rate);
  console.log("shedding on", summary(shedding));
  return { sustainable, shedding };
});
const OFF = { MAX_EVENT_LOOP_DELAY_MS: "0", MAX_HEAP_USED_PERCENT: "0", MAX_REQUESTS_IN_FLIGHT: "0" };
const unshed = await withServer(databaseUrl, OFF, async (server) => {
  const run = await drive(server, OVERLOAD_CONNECTIONS, shedding.offered);
  console.log("shedding off", summary(run));
  return run;
});

function summary(run: Run) {
  return {
    offered: run.offered,
    answered: run.answered,
    servedPerSecond: Math.round(run.served.length / SECONDS),
    served: [50, 99].map((p) => percentile(run.served, p)).concat(Math.max(0, ...run.served)),
    shed: run.shed.length,
    shedLatency: [50, 99].map((p) => percentile(run.shed, p)),
    other: run.other,
    timeouts: run.timeouts,
    errors: run.errors,
    maxDelayMs: Math.round(run.maxDelayMs),
  };
}

if (sustainable.shed.length > 0 || sustainable.other + sustainable.timeouts + sustainable.errors > 0) {
  console.error(
    `the sustainable run had ${sustainable.shed.length} 503s and ${sustainable.other + sustainable.timeouts + sustainable.errors} other failures: docs/benchmarks.md left as is`,
  );
  process.exit(1);
}
if (!REPORT) {
  console.log("smoke run: docs/benchmarks.md left as is (BENCH_REPORT=true writes it)");
  process.exit(0);
}
const row = (name: string, run: Run, delayShown = true) => {
  const s = summary(run);
  const [p50, p99, max] = s.served.map(Math.round);
  const [shedP50, shedP99] = s.shedLatency.map(Math.round);
  return `| ${name} | ${run.offered || "–"} | ${s.answered} | ${s.servedPerSecond} | ${p50} | **${p99}** | ${max} | ${s.shed} | ${shedP50} | ${shedP99} | **${s.timeouts}** | ${s.other + s.errors} | ${delayShown ? s.maxDelayMs : "–"} |`;
};
replaceSection(
  "Overload: load shedding at 3× the sustainable rate",
  [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:overload\` on this machine (${cpus().length} cores), Node ${process.version}: one server`,
    `process as \`npm run serve\` runs it on PostgreSQL (same machine), ${PRODUCTS.toLocaleString("en")} products, replies uncached`,
    `(CATALOG_CACHE_TTL_SECONDS=0), \`GET ${PATH}\`; autocannon on the same cores, ${SECONDS} s per row, a request`,
    `unanswered after ${TIMEOUT_SECONDS} s counts as a timeout. Sustainable: ${CONNECTIONS} connections, each sending its next request once`,
    `answered. Then ${FACTOR}× its 200s per second offered by ${OVERLOAD_CONNECTIONS} connections (autocannon's overallRate), with the shipped`,
    "settings (MAX_HEAP_USED_PERCENT=90, MAX_REQUESTS_IN_FLIGHT=200) and MAX_EVENT_LOOP_DELAY_MS=200 (off by default)",
    "and, on a new process, with all three 0. Latencies in ms; event-loop delay: the highest of the per-second readings of",
    "`voltio_event_loop_delay_seconds`.",
    "",
    "| run | offered req/s | answered req/s | served (200) req/s | served p50 | served p99 | served max | 503s | 503 p50 | 503 p99 | timeouts | other errors | event-loop delay, ms |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    row("sustainable", sustainable),
    row(`${FACTOR}×, shedding on`, shedding),
    row(`${FACTOR}×, shedding off`, unshed, false),
  ].join("\n"),
);
console.log("docs/benchmarks.md updated");

/**
 * `npm run bench:cold-start`: how long a server takes from its process's start to its first
 * 200 from /api/health/ready (database open and migrated, search index built), as `npm run serve` runs it, on
 * the demo store and on BENCH_PRODUCTS products; on an idle machine and with every core kept busy by
 * `yes > /dev/null` (one per core, started by the benchmark). BENCH_ROUNDS starts of each; a start that fails
 * or isn't ready within 180 s counts as failed. Also the process's CPU time and RSS at that moment, from /proc.
 * PostgreSQL: one seeded database per size, each start a new process on it; the embedded database: each start
 * on a fresh copy of a seeded DATA_DIR. Writes docs/benchmarks.md.
 *
 * Knobs for a smoke run (which leaves docs/benchmarks.md alone): BENCH_ROUNDS (5), BENCH_PRODUCTS (100000),
 * BENCH_STORES (postgres-demo,postgres-big,pglite-demo), BENCH_CONDITIONS (idle,busy). PostgreSQL as for
 * bench:catalog.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { cpus } from "node:os";
import { cpuMicros, residentMb, untilReady } from "./process";
import { replaceSection } from "./report";
import { startBenchServer } from "./server";
import {
  freshDemoDatabase,
  freshDemoDataDir,
  generateProducts,
  knob,
  median,
  reportWanted,
  serverEnv,
} from "./setup";

const ROUNDS = knob("BENCH_ROUNDS", 5, 1);
const PRODUCTS = knob("BENCH_PRODUCTS", 100_000, 60);
const STORES = (process.env.BENCH_STORES ?? "postgres-demo,postgres-big,pglite-demo").split(",");
const CONDITIONS = (process.env.BENCH_CONDITIONS ?? "idle,busy").split(",");
const REPORT = reportWanted(["BENCH_ROUNDS", "BENCH_PRODUCTS", "BENCH_STORES", "BENCH_CONDITIONS"]);
const READY_WITHIN_MS = 180_000;
const KNOWN_STORES = ["postgres-demo", "postgres-big", "pglite-demo", "pglite-big"];
if (STORES.some((store) => !KNOWN_STORES.includes(store))) {
  console.error(`BENCH_STORES=${process.env.BENCH_STORES} must list some of ${KNOWN_STORES.join(", ")}`);
  process.exit(2);
}
if (CONDITIONS.some((condition) => condition !== "idle" && condition !== "busy")) {
  console.error(`BENCH_CONDITIONS=${process.env.BENCH_CONDITIONS} must list idle and/or busy`);
  process.exit(2);
}

interface Start {
  readyMs: number;
  cpuMs: number;
  rssMb: number;
}

/** `yes > /dev/null` on every core: what else the machine runs takes them all. */
function busyCores(): () => void {
  const hogs: ChildProcess[] = cpus().map(() => spawn("yes", { stdio: "ignore" }));
  return () => {
    for (const hog of hogs) hog.kill();
  };
}

/** Environment of one start: a new process on the store, the first 200 from readiness awaited. */
async function coldStart(env: Record<string, string>): Promise<Start> {
  const server = await startBenchServer({ ...env, SHUTDOWN_DRAIN_SECONDS: "0" });
  try {
    await untilReady(server.base, READY_WITHIN_MS);
    const readyMs = performance.now() - server.spawnedAt;
    return { readyMs, cpuMs: cpuMicros(server.pid) / 1000, rssMb: residentMb(server.pid).rss };
  } finally {
    await server.stop();
  }
}

/** What each store's starts run on: a database made once, or a DATA_DIR copied afresh for every start. */
async function prepare(store: string): Promise<() => Record<string, string>> {
  const products = store.endsWith("-big") ? PRODUCTS : 59;
  if (store.startsWith("postgres")) {
    const databaseUrl = await freshDemoDatabase(`voltio_bench_start_${products}`, generateProducts(products));
    return () => serverEnv(databaseUrl);
  }
  const seeded = await freshDemoDataDir(`bench-start-${products}`, generateProducts(products));
  return () => {
    const copy = `${seeded}-start`;
    rmSync(copy, { recursive: true, force: true });
    cpSync(seeded, copy, { recursive: true });
    return { ...serverEnv(), DATA_DIR: copy };
  };
}

interface Row {
  store: string;
  condition: string;
  starts: Start[];
  failures: string[];
}

const rows: Row[] = [];
for (const store of STORES) {
  const environment = await prepare(store);
  for (const condition of CONDITIONS) {
    const row: Row = { store, condition, starts: [], failures: [] };
    const release = condition === "busy" ? busyCores() : () => {};
    try {
      for (let round = 0; round < ROUNDS; round++) {
        try {
          const start = await coldStart(environment());
          console.log(store, condition, `round ${round + 1}`, JSON.stringify(start));
          row.starts.push(start);
        } catch (error) {
          console.error(store, condition, `round ${round + 1} failed:`, error);
          row.failures.push((error as Error).message);
        }
      }
    } finally {
      release();
    }
    rows.push(row);
  }
}

const storeName = (store: string) =>
  `${store.endsWith("-big") ? `${PRODUCTS.toLocaleString("en")} products` : "demo store (59 products)"}, ${store.startsWith("postgres") ? "PostgreSQL" : "embedded PGlite"}`;
const lines = rows.map(({ store, condition, starts, failures }) => {
  const ready = starts.map((start) => start.readyMs / 1000);
  const runs = ready.map((seconds) => seconds.toFixed(1)).join(", ");
  return `| ${storeName(store)} | ${condition === "busy" ? `both cores busy (${cpus().length}× \`yes\`)` : "idle"} | **${median(ready).toFixed(1)}** (${runs}) | ${Math.max(...ready).toFixed(1)} | ${(median(starts.map((start) => start.cpuMs)) / 1000).toFixed(1)} | ${median(starts.map((start) => start.rssMb)).toFixed(0)} | **${failures.length} of ${starts.length + failures.length}** |`;
});
for (const line of lines) console.log(line);
const failed = rows.some((row) => row.failures.length > 0);
if (!REPORT || failed) {
  console.log(
    failed
      ? "some starts failed: docs/benchmarks.md left as is"
      : "smoke run: docs/benchmarks.md left as is (BENCH_REPORT=true writes it)",
  );
  process.exit(failed ? 1 : 0);
}
replaceSection(
  "Cold start: process start to ready",
  [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:cold-start\` on this machine (${cpus().length} cores), Node ${process.version}: the`,
    "server as `npm run serve` runs it, from the process's start to the first 200 of `/api/health/ready` (polled",
    "every 20 ms: database open and migrated, search index built), then its CPU time (user + system) and RSS",
    `from /proc. ${ROUNDS} starts per row, each a new process; PostgreSQL on the same machine (one database per store, every`,
    "start on it), the embedded database on a fresh copy of a seeded DATA_DIR each start. Busy: one `yes > /dev/null`",
    "per core for the whole row, so the server, PostgreSQL and the `yes` share the cores.",
    "",
    "| store | machine | ready, s: median (starts) | slowest, s | CPU until ready, s | RSS at ready, MB | failed starts |",
    "|---|---|---|---|---|---|---|",
    ...lines,
  ].join("\n"),
);
console.log("docs/benchmarks.md updated");

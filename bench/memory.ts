/**
 * `npm run bench:memory`: how much memory one server process holds, on a fresh PostgreSQL
 * database of the demo store grown to each of BENCH_SIZES products. The server runs as `npm run serve` runs
 * it; its resident memory (VmRSS, and VmHWM: the highest it reached) comes from /proc, its JavaScript heap from
 * /api/metrics. Read once /api/health/ready first answers 200 (the search index built), then after
 * BENCH_LOAD_SECONDS of mixed load: catalogue API listings, searches and products, storefront pages, at random
 * pages and products, the reply cache on as in production. Also checks that the server started no process of
 * its own. Writes docs/benchmarks.md.
 *
 * Knobs for a smoke run (which leaves docs/benchmarks.md alone): BENCH_SIZES (59,10000,100000),
 * BENCH_LOAD_SECONDS (60), BENCH_CONNECTIONS (10). PostgreSQL as for bench:catalog.
 */
import { cpus } from "node:os";
import autocannon from "autocannon";
import { childProcesses, heapMb, residentMb, untilReady } from "./process";
import { replaceSection } from "./report";
import { startBenchServer } from "./server";
import { freshDemoDatabase, generateProducts, knob, reportWanted, serverEnv } from "./setup";

const SIZES = (process.env.BENCH_SIZES ?? "59,10000,100000").split(",").map(Number);
const LOAD_SECONDS = knob("BENCH_LOAD_SECONDS", 60, 1);
const CONNECTIONS = knob("BENCH_CONNECTIONS", 10, 1);
const REPORT = reportWanted(["BENCH_SIZES", "BENCH_LOAD_SECONDS", "BENCH_CONNECTIONS"]);
const METRICS_TOKEN = "bench-metrics-token-0123456789";
if (SIZES.some((size) => !Number.isInteger(size) || size < 59)) {
  console.error(`BENCH_SIZES=${process.env.BENCH_SIZES} must list whole numbers of products, 59 or more`);
  process.exit(2);
}

const SEARCHES = ["usb", "laptop", "wireless mouse", "logitec mose", "keyboard", "monitor 27"];
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
const upTo = (n: number) => 1 + Math.floor(Math.random() * n);

/** One request of the mix, at random: what shoppers and crawlers ask a store for. */
function mixedPath(products: number): string {
  const pages = Math.ceil(products / 16);
  const roll = Math.random();
  if (roll < 0.3) return `/api/products?offset=${upTo(Math.min(pages, 500))}`;
  if (roll < 0.4)
    return `/api/products?order=${pick(["ASC", "DESC"])}&categoryId=${upTo(16)}&offset=${upTo(5)}`;
  if (roll < 0.55) return `/api/products/${upTo(products)}`;
  if (roll < 0.7) return `/api/products?search=${encodeURIComponent(pick(SEARCHES))}&offset=${upTo(3)}`;
  if (roll < 0.8) return `/product/${upTo(products)}`;
  if (roll < 0.88) return `/products?offset=${upTo(Math.min(pages, 50))}`;
  if (roll < 0.93) return "/";
  return pick(["/api/categories", "/api/store", "/api/sale", "/api/networks"]);
}

interface Reading {
  rss: number;
  peak: number;
  heapUsed: number;
  heapTotal: number;
}

interface Row {
  products: number;
  readyMs: number;
  atReady: Reading;
  afterLoad: Reading;
  requests: number;
  errors: number;
  children: number;
}

async function measureSize(products: number): Promise<Row> {
  const databaseUrl = await freshDemoDatabase("voltio_bench_memory", generateProducts(products));
  const server = await startBenchServer({ ...serverEnv(databaseUrl), METRICS_TOKEN });
  try {
    await untilReady(server.base, 180_000);
    const readyMs = performance.now() - server.spawnedAt;
    const read = async (): Promise<Reading> => {
      server.assertRunning();
      const { heapUsed, heapTotal } = await heapMb(server.base, METRICS_TOKEN);
      return { ...residentMb(server.pid), heapUsed, heapTotal };
    };
    const atReady = await read();
    const load = await autocannon({
      url: server.base,
      connections: CONNECTIONS,
      duration: LOAD_SECONDS,
      requests: [
        {
          setupRequest: (request) => ({ ...request, path: mixedPath(products) }),
        },
      ],
    });
    const afterLoad = await read();
    const row: Row = {
      products,
      readyMs,
      atReady,
      afterLoad,
      requests: load.requests.total,
      // A 404 for a product id past the end is no error; every other non-2xx is.
      errors: load.errors + load.timeouts + load["5xx"],
      children: childProcesses(server.pid).length,
    };
    console.log(
      JSON.stringify({
        ...row,
        failures: { errors: load.errors, timeouts: load.timeouts, "5xx": load["5xx"] },
      }),
    );
    return row;
  } finally {
    await server.stop();
  }
}

const rows: Row[] = [];
for (const products of SIZES) rows.push(await measureSize(products));

const failed = rows.filter((row) => row.errors > 0 || row.children > 0);
if (failed.length > 0) {
  console.error(
    `errors under load, or processes the server started, at ${failed.map((row) => row.products).join(", ")} products: docs/benchmarks.md left as is`,
  );
  process.exit(1);
}
const mb = (value: number) => value.toFixed(0);
const lines = rows.map(
  ({ products, readyMs, atReady, afterLoad, requests }) =>
    `| ${products.toLocaleString("en")} | ${(readyMs / 1000).toFixed(1)} | **${mb(atReady.rss)}** | ${mb(atReady.heapUsed)} / ${mb(atReady.heapTotal)} | **${mb(afterLoad.rss)}** | ${mb(afterLoad.heapUsed)} / ${mb(afterLoad.heapTotal)} | ${mb(afterLoad.peak)} | ${Math.round(requests / LOAD_SECONDS)} |`,
);
for (const line of lines) console.log(line);
if (!REPORT) {
  console.log("smoke run: docs/benchmarks.md left as is (BENCH_REPORT=true writes it)");
  process.exit(0);
}
replaceSection(
  "Memory of one server process — PostgreSQL",
  [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:memory\` on this machine (${cpus().length} cores), Node ${process.version}: one`,
    "server process as `npm run serve` runs it, on a fresh PostgreSQL database (same machine) of the demo store",
    "grown to each size. RSS: VmRSS from /proc; heap: V8's heap used / total, from /api/metrics. Read when",
    `/api/health/ready first answers 200 (search index built), then after ${LOAD_SECONDS} s of mixed load (${CONNECTIONS} connections: API`,
    "listings at random pages, category and price orders, products and searches; storefront pages; reply cache on).",
    "Peak: VmHWM, the highest RSS of the whole run. The server started no child process at any size.",
    "",
    "| products | ready, s | RSS at ready, MB | heap at ready, MB | RSS after load, MB | heap after load, MB | peak RSS, MB | req/s under load |",
    "|---|---|---|---|---|---|---|---|",
    ...lines,
    "",
    "Targets: at most 250 MB after start with the demo store, at most 400 MB at 100,000 products.",
  ].join("\n"),
);
console.log("docs/benchmarks.md updated");

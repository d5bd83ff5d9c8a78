/**
 * `npm run bench:catalog`: loads 100k generated products into PostgreSQL, starts the real server on it and
 * measures GET /api/products with autocannon (50 connections), without and with the response cache.
 * Writes the results to docs/benchmarks.md. Needs a PostgreSQL server: BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://voltio:voltio@127.0.0.1:5432/postgres (the role .ci/run creates).
 *
 * Knobs for a smoke run (which leaves docs/benchmarks.md alone): BENCH_PRODUCTS (100000), BENCH_SECONDS (10),
 * BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (50); BENCH_REPORT=true/false overrides whether it writes.
 * A run with errors writes nothing and exits 1: its numbers measure failures, not the catalogue.
 */
import { cpus } from "node:os";
import autocannon from "autocannon";
import pg from "pg";
import { replaceSection } from "./report";
import { startBenchServer, type BenchServer } from "./server";
import { freshDemoDatabase, knob, reportWanted, serverEnv } from "./setup";

const PRODUCTS = knob("BENCH_PRODUCTS", 100_000, 59);
const DURATION = knob("BENCH_SECONDS", 10, 1);
const WARMUP = knob("BENCH_WARMUP_SECONDS", 2, 1);
const CONNECTIONS = knob("BENCH_CONNECTIONS", 50, 1);
const REPORT = reportWanted(["BENCH_PRODUCTS", "BENCH_SECONDS", "BENCH_WARMUP_SECONDS", "BENCH_CONNECTIONS"]);

const scenarios = [
  { name: "listing, page 1", path: "/api/products?offset=1" },
  { name: "listing, page 50", path: "/api/products?offset=50" },
  { name: "category + price filter", path: "/api/products?categoryId=6&minPrice=10&maxPrice=100&offset=1" },
  { name: "search 'logitec mose'", path: "/api/products?search=logitec%20mose&offset=1" },
];

async function prepareDatabase(): Promise<string> {
  const url = await freshDemoDatabase("voltio_bench");

  // Generated products are variations of the 59 demo ones (real titles, words and category mixes).
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const started = Date.now();
  await client.query(
    `insert into products (title, name, price_cents, shipping_cost_cents, stock, description)
     select t.title || ' ' || g, t.name || ' v' || g, greatest(100, (t.price_cents * (0.5 + (g % 97) / 97.0))::int),
            case when g % 7 = 0 then 0 else t.shipping_cost_cents end, case when g % 50 = 0 then 0 else 1 + g % 100 end,
            t.description
     from generate_series(1, $1::int) g join products t on t.id = 1 + g % 59`,
    [PRODUCTS - 59],
  );
  await client.query(
    `insert into product_images (product_id, url, alt_text, position)
     select p.id, i.url, p.title, i.position from products p
     join product_images i on i.product_id = 1 + (p.id - 60) % 59 and i.position < 2 where p.id > 59`,
  );
  await client.query(
    `insert into product_categories (product_id, category_id)
     select p.id, c.category_id from products p join product_categories c on c.product_id = 1 + (p.id - 60) % 59
     where p.id > 59`,
  );
  await client.query("vacuum analyze");
  const { rows } = await client.query("select count(*)::int as n from products");
  console.log(`loaded ${rows[0].n} products in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await client.end();
  return url;
}

function startServer(databaseUrl: string, cacheSeconds: number): Promise<BenchServer> {
  return startBenchServer({ ...serverEnv(databaseUrl), CATALOG_CACHE_TTL_SECONDS: String(cacheSeconds) });
}

interface Measurement {
  scenario: string;
  cached: boolean;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(server: BenchServer, path: string): Promise<Omit<Measurement, "scenario" | "cached">> {
  const url = `${server.base}${path}`;
  await autocannon({ url, connections: Math.min(10, CONNECTIONS), duration: WARMUP }); // JIT, pool, caches
  server.assertRunning();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  server.assertRunning();
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const databaseUrl = await prepareDatabase();
const results: Measurement[] = [];
for (const cached of [false, true]) {
  const server = await startServer(databaseUrl, cached ? 600 : 0);
  try {
    for (const scenario of scenarios) {
      const measurement = { scenario: scenario.name, cached, ...(await measure(server, scenario.path)) };
      console.log(measurement);
      results.push(measurement);
    }
  } finally {
    // Gone, and its port free, before the next server starts.
    await server.stop();
  }
}

const failed = results.filter((m) => m.errors > 0);
if (failed.length > 0) {
  console.error(
    `${failed.length} rows had errors: not a measurement of the catalogue; docs/benchmarks.md left as is.`,
  );
  process.exit(1);
}
if (!REPORT) {
  console.log("smoke run: docs/benchmarks.md left as is (BENCH_REPORT=true writes it)");
  process.exit(0);
}

const row = (m: Measurement) =>
  `| ${m.scenario} | ${m.cached ? "cached" : "uncached"} | ${m.requestsPerSecond} | ${m.p50} | ${m.p99} | ${m.errors} |`;
const page1 = results.find((m) => !m.cached && m.scenario === "listing, page 1")!;
const page50 = results.find((m) => !m.cached && m.scenario === "listing, page 50")!;
replaceSection(
  "Catalogue API",
  [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:catalog\`: ${PRODUCTS.toLocaleString("en")} products in`,
    `PostgreSQL on this machine (${cpus().length} cores, ${cpus()[0]?.model.trim()}), Node ${process.version}, the server as`,
    `one process, autocannon with ${CONNECTIONS} connections for ${DURATION} s per row on the same machine (it competes`,
    `with the server and PostgreSQL for the ${cpus().length} cores). Uncached: CATALOG_CACHE_TTL_SECONDS=0.`,
    "",
    "| request | cache | req/s | p50 ms | p99 ms | errors |",
    "|---|---|---|---|---|---|",
    ...results.map(row),
    "",
    `Page 50 costs ${(page1.requestsPerSecond / page50.requestsPerSecond).toFixed(2)}× page 1 (req/s ratio).`,
  ].join("\n"),
);
console.log("docs/benchmarks.md updated");

/**
 * `npm run bench:web`: Lighthouse 12 (mobile preset, the system Chromium) on /, /products and /product/1
 * served by the production build, plus the gzipped JavaScript each route loads and a check that no admin
 * chunk is among it. Writes the "Web (Lighthouse)" section of docs/benchmarks.md, and "Web (JavaScript per
 * route)": every storefront route's first visit as the build's manifest states it (scripts/web-weight.ts, the
 * same reading as the budget step of `npm test`). `BENCH_WEB_JS_ONLY=1` writes that section alone, without
 * Lighthouse.
 *
 * Lighthouse is run with a pinned `npx lighthouse@12.2.3` instead of being a workspace dependency: its
 * dependency tree breaks `npm ci` in this workspace (docs: STACK-NOTES).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { adminChunks, gzippedKb, JS_BUDGET_KB, weighBuild } from "../scripts/web-weight";
import { replaceSection } from "./report";
import { startBenchServer } from "./server";

const LIGHTHOUSE = "lighthouse@12.2.3";
/** A free port unless BENCH_WEB_PORT names one (the run refuses to start if it is taken). */
const PORT = process.env.BENCH_WEB_PORT ? Number(process.env.BENCH_WEB_PORT) : undefined;
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const CHROME = CHROMIUM_PATH;
const CHROME_FLAGS = ["--headless=new", ...CHROMIUM_ARGS].join(" ");
const root = fileURLToPath(new URL("..", import.meta.url));
/** The build to weigh: apps/web/dist, or another folder (`WEB_DIST`, as the budget step takes). */
const dist = process.env.WEB_DIST ?? join(root, "apps/web/dist");

/** Performance ≥ 95 (median of the runs) on each, and 100 for the other categories. */
const ROUTES = [
  { path: "/", performanceTarget: 95 },
  { path: "/products", performanceTarget: 95 },
  { path: "/product/1", performanceTarget: 95 },
  { path: "/cart", performanceTarget: 95 },
  { path: "/login", performanceTarget: 95 },
];
/** Accessibility, best practices and SEO. */
const CATEGORY_TARGET = 100;

interface Measurement {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  scripts: string[];
  /** Lighthouse's measure of the host CPU (higher is faster); its 4× slowdown comes on top. */
  benchmarkIndex: number;
}

function build() {
  console.log("building the web app…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error("npm run build failed");
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART): such a run is repeated, up to 3 times. */
function lighthouse(url: string, output: string): Measurement {
  for (let attempt = 1; ; attempt++) {
    try {
      return lighthouseOnce(url, output);
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(`  retrying ${url}: ${(error as Error).message}`);
    }
  }
}

function lighthouseOnce(url: string, output: string): Measurement {
  const result = spawnSync(
    "npx",
    [
      "-y",
      LIGHTHOUSE,
      url,
      "--output=json",
      `--output-path=${output}`,
      "--only-categories=performance,accessibility,best-practices,seo",
      `--chrome-flags=${CHROME_FLAGS}`,
      "--quiet",
    ],
    { cwd: root, env: { ...process.env, CHROME_PATH: CHROME }, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (result.status !== 0) throw new Error(`lighthouse failed on ${url}`);
  const report = JSON.parse(readFileSync(output, "utf8")) as {
    categories: Record<string, { score: number }>;
    environment: { benchmarkIndex: number };
    audits: Record<
      string,
      { numericValue?: number; details?: { items?: { url: string; resourceType?: string }[] } }
    >;
  };
  const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
  const scripts = (report.audits["network-requests"]?.details?.items ?? [])
    .filter((item) => item.resourceType === "Script")
    .map((item) => new URL(item.url).pathname);
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcpMs: report.audits["largest-contentful-paint"]?.numericValue ?? NaN,
    cls: report.audits["cumulative-layout-shift"]?.numericValue ?? NaN,
    tbtMs: report.audits["total-blocking-time"]?.numericValue ?? NaN,
    scripts,
    benchmarkIndex: report.environment.benchmarkIndex,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The run with the median performance score: its numbers belong together. */
function medianRun(runs: Measurement[]): Measurement {
  const score = median(runs.map((run) => run.performance));
  return runs.find((run) => run.performance === score)!;
}

/** The "Web (JavaScript per route)" section: each storefront route's first visit, from the build's manifest. */
function writeRouteWeights() {
  const weights = weighBuild(dist);
  const today = new Date().toISOString().slice(0, 10);
  const over = weights
    .filter((route) => route.budgeted && route.kb > JS_BUDGET_KB)
    .map((route) => route.path);
  const admin = weights.filter((route) => route.adminScripts.length > 0).map((route) => route.path);
  const section = [
    `Measured ${today} by \`npm run bench:web\` from the production build's manifest (scripts/web-weight.ts, the`,
    "reading of `npm test`'s budget step): the gzipped size (level 9) of every script a first visit loads — the",
    "entry's scripts, and the page's lazy chunk and its English texts' chunks (app/page-texts.ts) with their",
    "static imports. What a page loads on first use (a dialog, a form's library, a section below the fold once",
    "hydrated, the Spanish texts) is not counted.",
    "",
    "| route | JS (gzip) | files | budget |",
    "|---|---|---|---|",
    ...weights.map(
      (route) =>
        `| ${route.path} | ${route.kb.toFixed(1)} KB | ${route.scripts.length} | ` +
        `${route.budgeted ? `${JS_BUDGET_KB} KB` : "not budgeted"} |`,
    ),
    "",
    (over.length === 0
      ? `Every budgeted route is within ${JS_BUDGET_KB} KB`
      : `Over ${JS_BUDGET_KB} KB: ${over.join(", ")}`) +
      (admin.length === 0 ? "; no route loads admin code." : `; admin code on ${admin.join(", ")}.`),
  ].join("\n");
  replaceSection("Web (JavaScript per route)", section);
  console.log(section);
}

async function main() {
  if (process.env.BENCH_WEB_SKIP_BUILD !== "1") build();
  writeRouteWeights();
  if (process.env.BENCH_WEB_JS_ONLY === "1") return;
  const admin = adminChunks(dist);
  const dataDir = mkdtempSync(join(tmpdir(), "voltio-bench-web-"));
  const reports = mkdtempSync(join(tmpdir(), "voltio-lighthouse-"));
  const server = await startBenchServer(
    { DATA_DIR: dataDir, LOG_LEVEL: "warn", DEMO: "true" },
    { port: PORT, publicUrl: "http://localhost:{port}" },
  );
  const base = `http://localhost:${server.port}`;
  const rows: string[] = [];
  const benchmarkIndexes: number[] = [];
  const misses: string[] = [];
  try {
    for (const route of ROUTES) {
      const runs: Measurement[] = [];
      for (let run = 0; run < RUNS; run++) {
        console.log(`lighthouse ${route.path} (run ${run + 1}/${RUNS})`);
        runs.push(lighthouse(base + route.path, join(reports, `run-${run}.json`)));
      }
      const result = medianRun(runs);
      benchmarkIndexes.push(...runs.map((run) => run.benchmarkIndex));
      const scripts = [...new Set(result.scripts)];
      const jsKb = scripts.reduce((sum, path) => sum + gzippedKb(dist, path), 0);
      const adminLoaded = scripts.filter((path) => admin.has(path));
      rows.push(
        `| ${route.path} | ${result.performance} (${runs.map((run) => run.performance).join(", ")}) | ` +
          `${result.accessibility} | ${result.bestPractices} | ${result.seo} | ` +
          `${(result.lcpMs / 1000).toFixed(2)} s | ${result.cls.toFixed(3)} | ${Math.round(result.tbtMs)} ms | ` +
          `${jsKb.toFixed(1)} KB (${scripts.length} files) | ${adminLoaded.length === 0 ? "none" : adminLoaded.join(", ")} |`,
      );
      if (result.performance < route.performanceTarget)
        misses.push(`performance on ${route.path}: ${result.performance} < ${route.performanceTarget}`);
      for (const [name, score] of [
        ["accessibility", result.accessibility],
        ["best practices", result.bestPractices],
        ["SEO", result.seo],
      ] as const)
        if (score < CATEGORY_TARGET) misses.push(`${name} on ${route.path}: ${score} < ${CATEGORY_TARGET}`);
      if (jsKb > JS_BUDGET_KB) misses.push(`JS on ${route.path}: ${jsKb.toFixed(1)} KB > ${JS_BUDGET_KB} KB`);
      if (adminLoaded.length > 0) misses.push(`admin code on ${route.path}: ${adminLoaded.join(", ")}`);
    }
  } finally {
    await server.stop(); // its database closed before its directory goes
    rmSync(reports, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }

  const today = new Date().toISOString().slice(0, 10);
  const section = [
    `Measured ${today} by \`npm run bench:web\`: ${LIGHTHOUSE}, mobile preset (simulated slow 4G and`,
    `4× CPU slowdown), the system Chromium headless, against the production build served by the real`,
    `server on a fresh demo database on the same machine. Median of ${RUNS} runs by performance score (all`,
    `runs in brackets). JS is the gzipped size (level 9) of every script the page loaded. Host CPU:`,
    `Lighthouse benchmarkIndex ${Math.round(Math.min(...benchmarkIndexes))}–${Math.round(Math.max(...benchmarkIndexes))} over the runs.`,
    "",
    "| route | performance | accessibility | best practices | SEO | LCP | CLS | TBT | JS (gzip) | admin chunks |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Targets: performance ≥ 95 on each route; accessibility, best practices and SEO ${CATEGORY_TARGET};`,
    `JS ≤ ${JS_BUDGET_KB} KB gzipped per route; no admin chunk. ` +
      (misses.length === 0 ? "All met." : `Missed: ${misses.join("; ")}.`),
  ].join("\n");
  replaceSection("Web (Lighthouse)", section);
  console.log(section);
}

await main();

/**
 * `npm run bench:pages`: what a server-rendered storefront page costs the server. Two servers on one fresh
 * PostgreSQL demo database, one as `npm start` runs it (React's production build) and one with
 * NODE_ENV=development (React's development build, which is what every page got before main.ts set NODE_ENV),
 * are loaded at the same time at the same fixed rate, so the host's speed, which drifts by tens of percent on
 * a shared machine, moves both alike. What is compared is CPU time per page, read from /proc: Linux only.
 * Needs the web build (`npm run build`). Writes docs/benchmarks.md.
 *
 * Knobs for a smoke run (which leaves docs/benchmarks.md alone): BENCH_ROUNDS (6), BENCH_SECONDS (8),
 * BENCH_RATE (pages per second to each server, 20). PostgreSQL as for bench:catalog.
 */
import { existsSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import autocannon from "autocannon";
import { replaceSection } from "./report";
import { startBenchServer, type BenchServer } from "./server";
import { freshDemoDatabase, knob, median, reportWanted, serverEnv } from "./setup";

const ROUNDS = knob("BENCH_ROUNDS", 6, 1);
const SECONDS = knob("BENCH_SECONDS", 8, 1);
const RATE = knob("BENCH_RATE", 20, 1);
const REPORT = reportWanted(["BENCH_ROUNDS", "BENCH_SECONDS", "BENCH_RATE"]);
const PAGES = ["/", "/products", "/product/1"];

if (!existsSync(new URL("../apps/web/dist/index.html", import.meta.url))) {
  console.error("bench:pages renders the web build: run `npm run build` first");
  process.exit(2);
}

/** The process's user and system CPU time so far, in microseconds (/proc/<pid>/stat counts 10 ms ticks). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Both loaded at once at RATE pages per second for SECONDS: CPU milliseconds per page of each. */
async function round(servers: BenchServer[], path: string): Promise<number[]> {
  const before = servers.map((server) => cpuMicros(server.pid));
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({ url: `${server.base}${path}`, connections: 4, overallRate: RATE, duration: SECONDS }),
    ),
  );
  return servers.map((server, i) => {
    server.assertRunning();
    const result = results[i]!;
    if (result.non2xx || result.errors || result.requests.total === 0)
      throw new Error(`${path}: ${result.non2xx} non-2xx replies and ${result.errors} errors`);
    return (cpuMicros(server.pid) - before[i]!) / result.requests.total / 1000;
  });
}

const databaseUrl = await freshDemoDatabase("voltio_bench_pages");
/** React's production build (NODE_ENV left to main.ts), then its development build. */
const servers: BenchServer[] = [];
try {
  for (const nodeEnv of ["", "development"])
    servers.push(await startBenchServer({ ...serverEnv(databaseUrl), NODE_ENV: nodeEnv }));
  const rows: string[] = [];
  for (const path of PAGES) {
    // Warm-up: the first renders compile the code and fill the catalogue cache.
    for (const server of servers)
      await autocannon({ url: `${server.base}${path}`, connections: 4, amount: 100 });
    const perPage: number[][] = servers.map(() => []);
    for (let r = 0; r < ROUNDS; r++) (await round(servers, path)).forEach((ms, i) => perPage[i]!.push(ms));
    const [production, development] = perPage.map(median) as [number, number];
    const line = `| ${path} | ${production.toFixed(1)} | ${development.toFixed(1)} | ${(development / production).toFixed(2)}× |`;
    console.log(line);
    rows.push(line);
  }
  if (REPORT) {
    replaceSection(
      "Server-rendered pages (CPU per page)",
      [
        `\`npm run bench:pages\`, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores, PostgreSQL demo store.`,
        `Both servers loaded at once, ${RATE} pages/s each for ${SECONDS} s, ${ROUNDS} rounds; median CPU time of the server process per page.`,
        "",
        "| page | production build, ms | development build, ms | development / production |",
        "|---|---|---|---|",
        ...rows,
      ].join("\n"),
    );
  }
} finally {
  for (const server of servers) await server.stop();
}

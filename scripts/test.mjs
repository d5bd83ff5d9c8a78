// `npm test`: every check, as parallel as two cores allow. Type checks, lint, the web build and the vitest
// suites run side by side (the server suites once the build is there: their page tests render it); the
// Playwright journeys start when all of those are done, so the browsers don't compete with them for CPU.
import { rmSync } from "node:fs";
import { runSteps } from "./run-steps.mjs";
import { failureLines, summarize, summaryLine } from "./test-summary.mjs";

const vitest = (name, projects, flags = "") => ({
  name,
  command: `vitest run ${projects.map((project) => `--project ${project}`).join(" ")} ${flags} --outputFile.json=reports/vitest-${name}.json`,
  report: { kind: "vitest", file: `reports/vitest-${name}.json` },
});

const checks = [
  { name: "build", command: "npm run build" },
  // Longest first: the server suites are the critical path.
  ...(process.env.TEST_DATABASE_URL
    ? // Two files at once: much of a file's time is PostgreSQL's, in its own processes (vitest's default on
      // two cores is one).
      [{ ...vitest("server-postgres", ["server-postgres"], "--maxWorkers=2"), after: ["build"] }]
    : []),
  // Two files at once here too: its longest files wait on the servers and CLIs they start (backup.test).
  { ...vitest("server-pglite", ["server-pglite"], "--maxWorkers=2"), after: ["build"] },
  { name: "typecheck", command: "npm run typecheck" },
  vitest("unit", ["domain", "web", "scripts"]),
  // The storefront's weight: every route's first-visit JavaScript against its budget, on the real build.
  {
    name: "budget",
    command: "node --import tsx scripts/web-budget.ts",
    after: ["build"],
    requires: ["build"],
  },
  { name: "lint", command: "npm run lint" },
];
const steps = [
  ...checks,
  {
    name: "e2e",
    command: "playwright test -c e2e/playwright.config.ts",
    after: checks.map((step) => step.name),
    requires: ["build"],
    report: { kind: "playwright", file: "reports/playwright.json" },
  },
];

rmSync("reports", { recursive: true, force: true });
const { code, ms } = await runSteps(steps, { record: "reports/steps.json" });

const total = summarize(code);
console.log("\nstep              result     tests                     time");
for (const step of total.steps) {
  const { passed, failed, skipped } = step.counts;
  const tests = passed + failed + skipped ? summaryLine(step.counts) : "";
  const result = step.code === 0 ? "passed" : step.skipped ? "not run" : "FAILED";
  console.log(
    `${step.name.padEnd(17)} ${result.padEnd(10)} ${tests.padEnd(25)} ${(step.ms / 1000).toFixed(1).padStart(6)} s`,
  );
}
const failures = failureLines();
if (failures.length) console.log(`failed:\n${failures.join("\n")}`);
console.log(`${"total".padEnd(54)} ${(ms / 1000).toFixed(1).padStart(6)} s`);
console.log(summaryLine(total));
process.exit(code);

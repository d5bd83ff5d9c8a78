// Adds up the vitest and Playwright JSON reports into the one line CI reads: "N passed, N failed".
// A step that failed before writing a report (typecheck, lint, build) counts as one failure.
import { existsSync, readFileSync } from "node:fs";

const exitStatus = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
let skipped = 0;

if (existsSync("reports/vitest.json")) {
  const vitest = JSON.parse(readFileSync("reports/vitest.json", "utf8"));
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
  // A suite that fails to load has no tests to count.
  failed += vitest.testResults.filter(
    (file) => file.status === "failed" && file.assertionResults.length === 0,
  ).length;
}
if (existsSync("reports/playwright.json")) {
  const { stats } = JSON.parse(readFileSync("reports/playwright.json", "utf8"));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
}
if (exitStatus !== 0 && failed === 0) failed = 1;

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || exitStatus !== 0 ? 1 : 0);

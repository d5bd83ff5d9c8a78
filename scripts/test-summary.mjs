// Adds up the test reports into the one line CI reads: "N passed, N failed". `npm test` (scripts/test.mjs)
// records its steps in reports/steps.json: each step's vitest or Playwright report is counted, and a step
// that failed without a failure in a report (typecheck, lint, build, a suite that crashed) counts as one.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** @param {{ kind: "vitest" | "playwright", file: string }} report */
export function countReport({ kind, file }) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  if (!existsSync(file)) return null;
  let data;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
  if (kind === "vitest") {
    counts.passed += data.numPassedTests;
    counts.failed += data.numFailedTests;
    counts.skipped += data.numPendingTests + data.numTodoTests;
    // A suite that fails to load has no tests to count.
    counts.failed += data.testResults.filter(
      (suite) => suite.status === "failed" && suite.assertionResults.length === 0,
    ).length;
  } else {
    counts.passed += data.stats.expected + data.stats.flaky;
    counts.failed += data.stats.unexpected;
    counts.skipped += data.stats.skipped;
  }
  return counts;
}

/** Reports of a run without a step record (a script that stopped early): whatever reports exist. */
function reportsOnDisk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^(vitest.*|playwright)\.json$/.test(name))
    .map((name) => ({ kind: name.startsWith("vitest") ? "vitest" : "playwright", file: `${dir}/${name}` }));
}

/**
 * @param {number} exitStatus the test command's exit status
 * @returns {{ passed: number, failed: number, skipped: number, steps: Array<{ name: string, counts: object | null }> }}
 */
export function summarize(exitStatus, dir = "reports") {
  const total = { passed: 0, failed: 0, skipped: 0 };
  const steps = [];
  const add = (counts) => {
    if (!counts) return;
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  };
  const record = `${dir}/steps.json`;
  if (existsSync(record)) {
    for (const step of JSON.parse(readFileSync(record, "utf8")).steps) {
      const counts = step.report ? countReport(step.report) : null;
      const failures = counts?.failed ?? 0;
      // Failed with nothing to show for it: the step itself is the failure.
      const own = step.code !== 0 && failures === 0 ? 1 : 0;
      const stepCounts = {
        passed: counts?.passed ?? 0,
        failed: failures + own,
        skipped: counts?.skipped ?? 0,
      };
      add(stepCounts);
      steps.push({
        name: step.name,
        code: step.code,
        ms: step.ms,
        skipped: step.skipped,
        counts: stepCounts,
      });
    }
  } else {
    for (const report of reportsOnDisk(dir)) add(countReport(report));
  }
  if (exitStatus !== 0 && total.failed === 0) total.failed = 1;
  return { ...total, steps };
}

export const summaryLine = ({ passed, failed, skipped }) =>
  `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const exitStatus = Number(process.argv[2] ?? 0);
  const total = summarize(exitStatus);
  console.log(summaryLine(total));
  process.exit(total.failed > 0 || exitStatus !== 0 ? 1 : 0);
}

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

/** The first line of a failure message, without colour codes and shortened: enough to tell which check broke. */
const firstLine = (message = "") =>
  message
    // eslint-disable-next-line no-control-regex -- the escape that starts a terminal colour code
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .find((line) => line.trim())
    ?.trim()
    .slice(0, 300) ?? "";

/**
 * Which tests failed, a line or two each: CI shows only the end of its output, and a failed run should name
 * its failures there rather than somewhere in thousands of lines above.
 * @returns {string[]}
 */
export function failureLines(dir = "reports", limit = 20) {
  const lines = [];
  for (const { kind, file } of reportsOnDisk(dir)) {
    let data;
    try {
      data = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      continue;
    }
    if (kind === "vitest") {
      for (const suite of data.testResults) {
        const where = suite.name.replace(`${process.cwd()}/`, "");
        if (suite.status === "failed" && suite.assertionResults.length === 0)
          lines.push(`✗ ${where}: ${firstLine(suite.message)}`);
        for (const test of suite.assertionResults.filter((result) => result.status === "failed"))
          lines.push(`✗ ${where} › ${test.fullName}\n    ${firstLine(test.failureMessages?.[0])}`);
      }
    } else {
      const walk = (suite) => {
        for (const child of suite.suites ?? []) walk(child);
        for (const spec of suite.specs ?? [])
          for (const test of spec.tests)
            if (test.status === "unexpected") {
              const error = test.results.at(-1)?.error?.message;
              lines.push(`✗ e2e/${spec.file}:${spec.line} › ${spec.title}\n    ${firstLine(error)}`);
            }
      };
      for (const suite of data.suites) walk(suite);
    }
  }
  return lines.length > limit ? [...lines.slice(0, limit), `… and ${lines.length - limit} more`] : lines;
}

export const summaryLine = ({ passed, failed, skipped }) =>
  `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const exitStatus = Number(process.argv[2] ?? 0);
  const total = summarize(exitStatus);
  const failures = failureLines();
  if (failures.length) console.log(`failed:\n${failures.join("\n")}`);
  console.log(summaryLine(total));
  process.exit(total.failed > 0 || exitStatus !== 0 ? 1 : 0);
}

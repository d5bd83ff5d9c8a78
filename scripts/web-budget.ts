/**
 * The storefront's weight budget, a step of `npm test` after the build: every storefront route's first
 * visit loads at most 120 KB of gzipped JavaScript and no back-office chunk (ADR 0006).
 * Prints a table of the routes; exits 1 when one is over. `WEB_DIST` names another build folder.
 */
import { fileURLToPath } from "node:url";
import { budgetProblems, JS_BUDGET_KB, weighBuild } from "./web-weight";

const dist = process.env.WEB_DIST ?? fileURLToPath(new URL("../apps/web/dist", import.meta.url));
const weights = weighBuild(dist);

console.log(`route                 JS (gzip -9)  files  budget ${JS_BUDGET_KB} KB`);
for (const route of weights) {
  const verdict =
    route.adminScripts.length > 0
      ? "ADMIN CODE"
      : !route.budgeted
        ? "(not budgeted)"
        : route.kb > JS_BUDGET_KB
          ? "OVER"
          : "ok";
  console.log(
    `${route.path.padEnd(21)} ${`${route.kb.toFixed(1)} KB`.padStart(12)}  ${String(route.scripts.length).padStart(5)}  ${verdict}`,
  );
}
const problems = budgetProblems(weights);
if (problems.length > 0) {
  console.error(`\nOver the storefront's budget:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
  // The biggest files of the heaviest budgeted route: where to look first.
  const heaviest = weights.filter((route) => route.budgeted).sort((a, b) => b.kb - a.kb)[0]!;
  console.error(`\n${heaviest.path} loads:`);
  for (const script of [...heaviest.scripts].sort((a, b) => b.kb - a.kb))
    console.error(`  ${script.kb.toFixed(1).padStart(6)} KB  ${script.file}`);
  process.exit(1);
}
console.log("\nEvery budgeted storefront route is within the budget; no route loads admin code.");

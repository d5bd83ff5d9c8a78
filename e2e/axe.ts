import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import type { AxeResults, RunOptions } from "axe-core";
import type axe from "axe-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * axe-core's violations on what the page shows now, run in the page itself: axe is injected once per document
 * and run on it (or on the `include` selector). @axe-core/playwright's analyze() opened a page of its own for
 * every audit to combine its frames' results — our pages have no frames — and took 0.5–1.2 s per audit
 * against 0.1–0.4 s here: a third of the journeys' time went to it.
 */
export async function axeViolations(
  page: Page,
  { include, tags, rules }: { include?: string; tags?: string[]; rules?: string[] },
): Promise<AxeResults["violations"]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const options: RunOptions = {
    runOnly: rules ? { type: "rule", values: rules } : { type: "tag", values: tags ?? WCAG_AA },
    resultTypes: ["violations"],
  };
  return page.evaluate(
    ([context, runOptions]) =>
      (window as unknown as { axe: typeof axe }).axe
        .run(context ?? document, runOptions)
        .then((results) => results.violations),
    [include ?? null, options] as const,
  );
}

import { test as base, type Locator, type Page } from "@playwright/test";

export { expect, type Page } from "@playwright/test";

/**
 * Storefront pages arrive rendered by the server and become interactive when the browser has hydrated them
 * (ADR 0006). A click in between would land on an inert button, as it would for a person on a slow phone:
 * journeys wait for <html data-hydrated> after every page load, as a person waits for the page to react.
 */
export async function waitForHydration(page: Page) {
  const serverRendered = await page.evaluate(() =>
    Boolean(document.getElementById("root")?.dataset.language),
  );
  if (serverRendered) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

export const test = base.extend({
  page: async ({ page }, use) => {
    for (const method of ["goto", "reload", "goBack", "goForward"] as const) {
      const navigate = page[method].bind(page) as (...args: unknown[]) => ReturnType<Page["goto"]>;
      Object.assign(page, {
        [method]: async (...args: unknown[]) => {
          const response = await navigate(...args);
          await waitForHydration(page);
          return response;
        },
      });
    }
    await use(page);
  },
});

/**
 * Clicks and checks the toast that follows. The SPEC's toasts last 2 seconds, so the watch starts before
 * the click: on a slow machine the click itself can take longer than the toast stays.
 */
export async function clickForToast(page: Page, target: Locator, text: string) {
  const shown = page.getByText(text).waitFor({ state: "visible" });
  await target.click();
  await shown;
}

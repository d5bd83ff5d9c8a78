// The plain test: these journeys hold the script back themselves (fixtures.ts would wait for hydration).
import { expect, test, type Page } from "@playwright/test";
import { clickForToast } from "./fixtures";

/**
 * Storefront pages arrive rendered by the server and the browser hydrates them (ADR 0006): the content is
 * there before any script runs, the same DOM nodes become interactive, and nothing mismatches. What the
 * HTML itself holds (language, head, preloads, compression) is checked without a browser, by the server's
 * tests: apps/server/src/modules/web/pages.test.ts and seo.test.ts.
 */

/** Holds the app's script back until `release()`, so a test can look at the page as the server sent it. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/app-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Errors the page logs: a hydration mismatch is reported as one. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    // A 404 page answers with its status on purpose; the browser logs that as a failed resource.
    if (message.type() === "error" && !message.text().includes("status of 404")) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

for (const path of ["/", "/products?offset=1", "/product/1", "/profiles", "/no-such-page"]) {
  test(`${path} is shown before its script runs and hydrates without errors`, async ({ page }) => {
    const errors = collectErrors(page);
    const release = await holdScripts(page);
    await page.goto(path, { waitUntil: "domcontentloaded" });
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Voltio" })).toBeVisible();
    const serverHeader = await header.elementHandle();

    release();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    // Hydrated: the search box reacts to typing (the server's HTML alone would not).
    const search = page.getByRole("combobox", { name: "Search products" });
    await search.fill("logitech");
    await expect(page.getByRole("listbox")).toBeVisible();
    // The server's nodes were taken over, not replaced.
    expect(await serverHeader!.evaluate((node) => node.isConnected)).toBe(true);
    expect(errors).toEqual([]);
  });
}

test("a product page hydrates into a working page: the cart toggle responds", async ({ page }) => {
  const errors = collectErrors(page);
  const release = await holdScripts(page);
  await page.goto("/product/1", { waitUntil: "domcontentloaded" });
  const title = page.getByRole("heading", { level: 1 });
  await expect(title).toBeVisible();
  const serverTitle = await title.elementHandle();
  release();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  await clickForToast(page, page.getByRole("button", { name: "Add to cart" }), "Added to the cart !");
  expect(await serverTitle!.evaluate((node) => node.isConnected)).toBe(true);
  expect(errors).toEqual([]);
});

test("a visitor who chose Spanish gets Spanish pages on the next visit, with no English first", async ({
  page,
}) => {
  const errors = collectErrors(page);
  await page.goto("/profiles");
  await page.getByRole("combobox", { name: "Language" }).selectOption("es");
  await expect(page.getByRole("link", { name: "Saltar al contenido" })).toBeAttached();

  const release = await holdScripts(page);
  await page.goto("/product/1", { waitUntil: "domcontentloaded" });
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("link", { name: "Saltar al contenido" })).toBeAttached();
  release();
  await expect(page.getByRole("combobox", { name: "Idioma" })).toHaveValue("es");
  expect(errors).toEqual([]);
});

// The plain test: these journeys hold the script back themselves (fixtures.ts would wait for hydration).
import { expect, test, type Page } from "@playwright/test";
import { clickForToast } from "./fixtures";

/**
 * Storefront pages arrive rendered by the server and the browser hydrates them (ADR 0006): the content is
 * there before any script runs, the same DOM nodes become interactive, and nothing mismatches.
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

test("the HTML of each storefront page already holds the page, in its language", async ({ request }) => {
  const product = await (await request.get("/api/products/2")).json();
  const html = async (path: string, headers?: Record<string, string>) =>
    (await request.get(path, { headers })).text();

  const productPage = await html("/product/2");
  expect(productPage).toMatch(/<div id="root" data-language="en">.*<header/s);
  expect(productPage).toContain(`>${product.title}</h1>`);
  expect(await html("/profiles")).toContain("About us");
  expect(await html("/")).toContain("Log in / Sign up");

  // The language switch's cookie, else the browser's own language.
  const spanish = await html("/products?offset=1", { cookie: "lang=es" });
  expect(spanish).toContain('<html lang="es">');
  expect(spanish).toContain('data-language="es"');
  expect(spanish).toContain("Saltar al contenido");
  expect(await html("/", { "accept-language": "es-AR,es;q=0.9,en;q=0.8" })).toContain("Saltar al contenido");
  expect(await html("/", { "accept-language": "es-AR", cookie: "lang=en" })).toContain("Skip to content");

  // Pages other than the storefront's stay a shell the browser draws.
  expect(await html("/login")).toContain('<div id="root"></div>');
});

test("pages are compressed for browsers that accept it", async ({ request }) => {
  const reply = await request.get("/product/1", { headers: { "accept-encoding": "br" } });
  expect(reply.headers()["content-encoding"]).toBe("br");
  expect(reply.headers()["vary"]).toContain("Accept-Encoding");
  expect(await reply.text()).toContain("<h1");
});

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

import { clickForToast, expect, expectToastLasts2Seconds, test, type Page } from "./fixtures";

/**
 * Journeys of /products (docs/product-rules.md §1 Product listing): filters in the URL, sort, pages, the skeleton only while
 * loading (ADR 0017), toasts.
 */

const grid = (page: Page) => page.getByRole("region", { name: "Products" });
const cards = (page: Page) => grid(page).getByRole("article");

async function prices(page: Page): Promise<number[]> {
  await expect(cards(page).first()).toBeVisible();
  const texts = await grid(page).locator("article p span.font-bold").allTextContents();
  return texts.map((text) => Number(text.replace("US$", "").trim()));
}

/** Holds the API's product lists until `release()`: the page shows what it shows while they are on their way. */
async function holdProductLists(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/products\?/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test("a server-rendered listing shows its products at once and keeps them after hydration (ADR 0017)", async ({
  page,
}) => {
  const asked: string[] = [];
  page.on("request", (request) => {
    if (/\/api\/products\?/.test(request.url())) asked.push(request.url());
  });
  // Any list the page asked for would not come: what shows came with the HTML.
  await holdProductLists(page);
  await page.goto("/products?offset=1");
  // Hydrated (fixtures.ts waits for it): the same 16 cards, no skeleton before or after. The HTML carried
  // the products without their descriptions: the whole reply is asked for once, in the background.
  await expect(cards(page)).toHaveCount(16);
  await expect(page.getByTestId("listing-skeleton")).toHaveCount(0);
  // The count too (the demo's 58: apps/server/src/modules/web/storefront-html.test.ts; journeys beside this
  // one may add products of their own).
  await expect(page.getByText(/^\d+ products$/)).toBeVisible();
  await expect(grid(page)).toHaveAttribute("aria-busy", "false");
  await expect.poll(() => asked.map((url) => new URL(url).search)).toEqual(["?offset=1"]);
});

test("a guest who lists a product before the listing's descriptions came keeps the product's own", async ({
  page,
}) => {
  await holdProductLists(page);
  await page.goto("/products?offset=1");
  const mouse = cards(page).filter({ hasText: "Logitech M510 Wireless Computer Mouse" });
  await clickForToast(
    page,
    mouse.getByRole("button", { name: "Add Logitech M510 Wireless Computer Mouse to the wishlist" }),
    "Added to the wishlist !",
  );
  // Listed at once (a page left right away keeps it), and completed with the product's own description.
  const stored = () => page.evaluate(() => JSON.parse(localStorage.getItem("inWishList") ?? "[]"));
  const product = (await (await page.request.get("/api/products/11")).json()) as { description: string };
  expect(product.description).not.toBe("");
  await expect.poll(stored).toMatchObject([{ productId: 11, description: product.description }]);
});

test("a 10-card skeleton shows only while the products are on their way, then the grid", async ({ page }) => {
  await page.goto("/");
  const release = await holdProductLists(page);
  // In the browser, from another page: the grid needs a request, and the skeleton stands in until it answers.
  await page.getByRole("main").getByRole("link", { name: "All products" }).click();
  await expect(page).toHaveURL(/\/products\?offset=1$/);
  await expect(page.getByTestId("listing-skeleton").locator(":scope > div")).toHaveCount(10);
  await expect(grid(page)).toHaveAttribute("aria-busy", "true");
  await expect(cards(page)).toHaveCount(0);
  release();
  await expect(cards(page)).toHaveCount(16);
  await expect(page.getByTestId("listing-skeleton")).toHaveCount(0);
});

test("the category heading, and the page bar keeps the filters", async ({ page }) => {
  await page.goto("/products?categoryId=4&offset=1");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Peripheral");
  const { total } = await (await page.request.get("/api/products?categoryId=4&limit=1")).json();
  await expect(page.getByText(`${total} products`)).toBeVisible();
  const pages = page.getByRole("navigation", { name: "Pages" });
  await expect(pages.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
  await pages.getByRole("link", { name: "Page 2" }).click();
  await expect(page).toHaveURL(/\/products\?categoryId=4&offset=2$/);
  await expect(cards(page)).toHaveCount(total - 16);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Peripheral");
});

test("Min and Max go into the URL, empty values are left out, and the grid follows", async ({ page }) => {
  await page.goto("/products?offset=1");
  await page.getByLabel("Min", { exact: true }).fill("100");
  await page.getByLabel("Max", { exact: true }).fill("");
  await page.getByRole("button", { name: "Apply price" }).click();
  await expect(page).toHaveURL(/\/products\?offset=1&minPrice=100$/);
  // A sale may lower a shown price below the filter, never by more than the 35% of the demo's sales.
  await expect(async () => {
    for (const price of await prices(page)) expect(price).toBeGreaterThanOrEqual(65);
  }).toPass();

  await page.getByLabel("Min", { exact: true }).fill("");
  await page.getByLabel("Max", { exact: true }).fill("20");
  await page.getByRole("button", { name: "Apply price" }).click();
  await expect(page).toHaveURL(/\/products\?offset=1&maxPrice=20$/);
  await expect(async () => {
    for (const price of await prices(page)) expect(price).toBeLessThanOrEqual(20);
  }).toPass();

  await page.getByLabel("Min", { exact: true }).fill("50");
  await page.getByRole("button", { name: "Apply price" }).click();
  await expect(page.getByRole("alert")).toHaveText("Min can't be higher than Max.");
  await expect(page).toHaveURL(/maxPrice=20$/);
});

test("Free shipping sets freeShipping=true, then false when pressed again", async ({ page }) => {
  await page.goto("/products?offset=1");
  const toggle = page.getByRole("switch", { name: "Free shipping" });
  await toggle.click();
  await expect(page).toHaveURL(/freeShipping=true/);
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  // The grid of the previous filter may still be on screen for a moment.
  await expect(async () => {
    const shipping = await grid(page).locator("article").allTextContents();
    expect(shipping.length).toBeGreaterThan(0);
    for (const text of shipping) expect(text).toContain("Free shipping");
  }).toPass();
  await toggle.click();
  await expect(page).toHaveURL(/freeShipping=false/);
  await expect(toggle).toHaveAttribute("aria-checked", "false");
});

test("sort: ASC and DESC exclude each other and choosing the same one again clears the order", async ({
  page,
}) => {
  await page.goto("/products?categoryId=1&offset=1");
  const ascending = page.getByRole("button", { name: "Lowest price" });
  const descending = page.getByRole("button", { name: "Highest price" });
  await ascending.click();
  await expect(page).toHaveURL(/order=ASC/);
  await expect(ascending).toHaveAttribute("aria-pressed", "true");
  await expect(async () => {
    const list = await prices(page);
    expect(list).toEqual([...list].sort((a, b) => a - b));
  }).toPass();

  await descending.click();
  await expect(page).toHaveURL(/order=DESC/);
  await expect(ascending).toHaveAttribute("aria-pressed", "false");
  await expect(descending).toHaveAttribute("aria-pressed", "true");

  await descending.click();
  await expect(page).not.toHaveURL(/order=/);
  await expect(descending).toHaveAttribute("aria-pressed", "false");
});

test("back, forward and reload keep the listing state", async ({ page }) => {
  await page.goto("/products?categoryId=1&offset=1");
  await page.getByRole("button", { name: "Highest price" }).click();
  await expect(page).toHaveURL(/order=DESC/);
  await page.getByRole("switch", { name: "Free shipping" }).click();
  await expect(page).toHaveURL(/freeShipping=true/);
  await page.goBack();
  await expect(page).toHaveURL(/order=DESC$/);
  await expect(page.getByRole("switch", { name: "Free shipping" })).toHaveAttribute("aria-checked", "false");
  await expect(page.getByRole("button", { name: "Highest price" })).toHaveAttribute("aria-pressed", "true");
  await page.goForward();
  await expect(page.getByRole("switch", { name: "Free shipping" })).toHaveAttribute("aria-checked", "true");
  await page.reload();
  await expect(page.getByRole("switch", { name: "Free shipping" })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByRole("button", { name: "Highest price" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Computers");
});

test("no match shows the 'No results found' picture", async ({ page }) => {
  await page.goto("/products?search=zzqqxxyy&offset=1");
  await expect(page.getByRole("img", { name: "An empty box under a magnifying glass" })).toBeVisible();
  await expect(page.getByRole("main").getByText("No results found")).toBeVisible();
  await expect(cards(page)).toHaveCount(0);
});

test("cards carry the discount badge and toggle cart and wishlist with the SPEC's toasts", async ({
  page,
}) => {
  await page.clock.install();
  await page.goto("/products?categoryId=6&offset=1");
  const mouse = cards(page).filter({ hasText: "Logitech M510 Wireless Computer Mouse" });
  // The demo's mouse sale runs every day: 100% off the third unit.
  await expect(mouse).toContainText("100% OFF on 3º unit");
  await clickForToast(
    page,
    mouse.getByRole("button", { name: "Add Logitech M510 Wireless Computer Mouse to the cart" }),
    "Added to the cart !",
  );
  await clickForToast(
    page,
    mouse.getByRole("button", { name: "Remove Logitech M510 Wireless Computer Mouse from the cart" }),
    "Removed from the cart !",
  );
  await clickForToast(
    page,
    mouse.getByRole("button", { name: "Add Logitech M510 Wireless Computer Mouse to the wishlist" }),
    "Added to the wishlist !",
  );
  // Toasts sit bottom-left and close by themselves after 2 seconds. The toaster is there only while a toast
  // is: its place is read while the clock stands still (read after a running one, a slow machine saw it gone).
  await expectToastLasts2Seconds(
    page,
    mouse.getByRole("button", { name: "Remove Logitech M510 Wireless Computer Mouse from the wishlist" }),
    "Removed from wishlist !",
    async () => {
      const toaster = page.locator("[data-sonner-toaster]");
      await expect(toaster).toHaveAttribute("data-x-position", "left");
      await expect(toaster).toHaveAttribute("data-y-position", "bottom");
    },
  );
});

test("at 360 px the filters fold behind a button and the grid keeps two columns", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto("/products?offset=1");
  const button = page.getByRole("button", { name: "Filters" });
  await expect(page.getByRole("switch", { name: "Free shipping" })).toBeHidden();
  await button.click();
  // A sheet (issue 41): a dialog with the same filters, over the grid.
  await expect(button).toHaveAttribute("aria-expanded", "true");
  const sheet = page.getByRole("dialog", { name: "Filters" });
  await expect(sheet.getByRole("switch", { name: "Free shipping" })).toBeVisible();
  await sheet.getByRole("button", { name: "Close filters" }).click();
  await expect(button).toBeFocused();
  await expect(cards(page).first()).toBeVisible();
  const [first, second] = await cards(page).evaluateAll((items) =>
    items.slice(0, 2).map((item) => item.getBoundingClientRect().top),
  );
  expect(first).toBe(second);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
});

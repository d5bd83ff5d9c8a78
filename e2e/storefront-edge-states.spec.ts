import { randomBytes } from "node:crypto";
import {
  ADMIN,
  expect,
  expectNoSeriousAxeViolations,
  expectNoSeriousAxeViolationsInBothThemes,
  signIn,
  test,
  tokenOf,
  type Page,
} from "./fixtures";

/**
 * The listing's edge states (point 5): each ends in a page that says what happened, never an
 * endless skeleton, a count over 'No results', or 'All products' for a category that is not there.
 */

const grid = (page: Page) => page.getByRole("region", { name: "Products" });
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const LONG_SEARCH = "usb cable ".repeat(120).trim();

test("a 1,000+ character search ends in a message saying how long a search may be", async ({ page }) => {
  expect(LONG_SEARCH.length).toBeGreaterThan(1000);
  await page.goto("/products?offset=1");
  // Typed (pasted) in the header's search box and submitted, as a shopper does.
  const search = page.getByRole("banner").getByRole("search").getByRole("combobox");
  await search.fill(LONG_SEARCH);
  await search.press("Enter");
  await expect(page).toHaveURL(/\/products\?search=usb/);
  await expect(heading(page)).toHaveText("That search is too long");
  await expect(grid(page)).toContainText(
    `Search with at most 100 characters; this one has ${LONG_SEARCH.length}.`,
  );
  await expect(page.getByTestId("listing-skeleton")).toHaveCount(0);
  await expect(grid(page)).toHaveAttribute("aria-busy", "false");
  await expect(page).toHaveTitle("That search is too long | Voltio");
  await grid(page).getByRole("link", { name: "All products" }).click();
  // The listing, counted (the demo's 58 as the server renders it: storefront-html.test.ts).
  await expect(page.getByText(/^\d+ products$/)).toBeVisible();
});

test("a question the API refuses shows the API's reason instead of a skeleton", async ({ page }) => {
  await page.goto("/products?minPrice=50&maxPrice=10&offset=1");
  await expect(grid(page)).toContainText("This list can't be shown");
  await expect(grid(page)).toContainText("maxPrice must be greater than or equal to minPrice");
  await expect(page.getByTestId("listing-skeleton")).toHaveCount(0);
});

test("a page past the last links to the last one, which the browser draws with the filters kept", async ({
  page,
}) => {
  // What the server's page says (no page 9, how many there are, the link): storefront-html.test.ts. Here a
  // category no journey adds products to, so its last page holds a known number of them.
  const { total } = (await (await page.request.get("/api/products?categoryId=4&limit=1")).json()) as {
    total: number;
  };
  const last = Math.ceil(total / 16);
  await page.goto("/products?categoryId=4&offset=9&order=ASC");
  await expect(heading(page)).toHaveText("Peripheral");
  await expect(grid(page)).toContainText("There is no page 9");
  await expect(grid(page).getByText("No results found")).toHaveCount(0);
  await grid(page)
    .getByRole("link", { name: `Go to page ${last}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/products\\?categoryId=4&offset=${last}&order=ASC$`));
  await expect(grid(page).getByRole("article")).toHaveCount(total - 16 * (last - 1));
});

test("an unknown category stays so once the browser has drawn it (the server's 404 page: storefront-html.test.ts)", async ({
  page,
}) => {
  await page.goto("/products?categoryId=99999&offset=1");
  await expect(heading(page)).toHaveText("Category not found");
  await expect(page.getByText("All products", { exact: true }).and(heading(page))).toHaveCount(0);
});

test("a category with no product for sale stays out of the menus, but not out of the admin's form", async ({
  page,
}) => {
  // A category of its own whose only product is sold out: nothing to buy there.
  const category = `Edge ${randomBytes(3).toString("hex")}`;
  const admin = { authorization: `Bearer ${await tokenOf(page.request, ADMIN)}` };
  const created = await page.request.post("/api/products", {
    headers: admin,
    data: {
      title: `E2E ${category} lamp`,
      name: "Lamp",
      price: "10",
      shippingCost: "0",
      description: "Lights. ",
      stock: 0,
      images: [],
      categories: [category],
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.goto("/");
  const button = page.getByRole("banner").getByRole("button", { name: "Categories" });
  await button.click();
  const menu = page.locator(`[id="${await button.getAttribute("aria-controls")}"]`);
  await expect(menu.getByRole("link", { name: "Laptops" })).toBeVisible();
  await expect(menu.getByRole("link", { name: category })).toHaveCount(0);
  // The home page's shortcuts leave it out too (their exact list: storefront-html.test.ts).
  const shortcuts = page.getByRole("navigation", { name: "Shop by category" }).getByRole("link");
  await expect(shortcuts.filter({ hasText: "Laptops" })).toHaveCount(1);
  await expect(shortcuts.filter({ hasText: category })).toHaveCount(0);

  // The back office still offers it for a product.
  await signIn(page, ADMIN);
  await page.goto("/admin/create/Product");
  const existing = page.getByRole("region", { name: "Product details" }).getByLabel("Existing category");
  await expect(existing.locator("option", { hasText: category })).toHaveCount(1);
});

for (const [path, text] of [
  [`/products?search=${encodeURIComponent(LONG_SEARCH)}&offset=1`, "That search is too long"],
  ["/products?offset=9", "There is no page 9"],
  ["/products?categoryId=99999&offset=1", "Category not found"],
] as const) {
  test(`the edge state '${text}' at phone width has no serious or critical axe violation, light or dark`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(path);
    await expect(grid(page).getByText(text)).toBeVisible();
    await expectNoSeriousAxeViolationsInBothThemes(page);
  });
}

test("a page whose code can't be fetched says so and offers a reload; the header still takes the shopper on", async ({
  page,
}) => {
  // The connection drops as the cart's chunk is asked for (or a new release replaced it).
  await page.route(/\/assets\/CartPage-[^/]+\.js$/, (route) => route.abort("internetdisconnected"));
  await page.goto("/cart");
  await expect(heading(page)).toHaveText("This page couldn't be loaded");
  await expect(page.getByText("Check your connection and try again.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Reload the page" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.unroute(/\/assets\/CartPage-/);
  // Another page draws again: the message belonged to the cart.
  await page
    .getByRole("banner")
    .getByRole("link", { name: /^Wishlist/ })
    .click();
  await expect(page).toHaveURL(/\/wishlist$/);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("This page couldn't be loaded");
  await expect(page.getByRole("button", { name: "Reload the page" })).toHaveCount(0);
});

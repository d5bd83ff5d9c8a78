import {
  expect,
  expectNoSeriousAxeViolations,
  expectNoSeriousAxeViolationsInBothThemes,
  scrollToTheEnd,
  test,
  type Page,
} from "./fixtures";

/** An axe audit of every storefront page, in both themes (one load each), with no serious or critical violation. */

const PAGES = [
  { name: "home", path: "/", ready: (page: Page) => page.locator("main section[data-per-view]").first() },
  { name: "listing", path: "/products?offset=1", ready: (page: Page) => page.getByRole("article").first() },
  {
    name: "category listing",
    path: "/products?categoryId=6&offset=1",
    ready: (page: Page) => page.getByRole("article").first(),
  },
  {
    name: "no results",
    path: "/products?search=zzqqxxyy&offset=1",
    ready: (page: Page) => page.getByRole("main").getByText("No results found"),
  },
  {
    name: "product",
    path: "/product/11",
    ready: (page: Page) => page.getByRole("region", { name: "Related products" }),
  },
  {
    name: "out of stock product",
    path: "/product/16",
    ready: (page: Page) => page.getByRole("button", { name: "No Stock" }),
  },
  {
    name: "empty cart",
    path: "/cart",
    ready: (page: Page) => page.getByRole("main").getByText("This cart is empty"),
  },
  {
    name: "empty wishlist",
    path: "/wishlist",
    ready: (page: Page) => page.getByRole("main").getByText("This Wishlist is empty"),
  },
  {
    name: "login",
    path: "/login",
    ready: (page: Page) => page.getByRole("textbox", { name: "E-mail" }),
  },
  {
    name: "about us",
    path: "/profiles",
    ready: (page: Page) => page.getByRole("heading", { name: "About us" }),
  },
  {
    name: "not found",
    path: "/no/such/page",
    ready: (page: Page) => page.getByRole("heading", { name: "Page not found" }),
  },
];

for (const { name, path, ready } of PAGES) {
  test(`${name} has no serious or critical axe violation, light or dark`, async ({ page }) => {
    await page.goto(path);
    await scrollToTheEnd(page);
    await expect(ready(page)).toBeVisible();
    await expectNoSeriousAxeViolationsInBothThemes(page);
  });
}

test("the open search suggestions and Categories menu pass axe", async ({ page }) => {
  await page.goto("/product/11");
  await page.getByRole("combobox", { name: "Search products" }).fill("mouse");
  await expect(page.getByRole("listbox", { name: "Suggestions" }).getByRole("option").first()).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Categories" }).click();
  await expectNoSeriousAxeViolations(page);
});

test("the cart's preview and the login dialog of Buy now pass axe", async ({ page }) => {
  await page.goto("/product/11");
  await page.getByRole("link", { name: /^Shopping cart, / }).hover();
  await expect(page.getByText("This cart is empty")).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Buy now" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoSeriousAxeViolations(page);
});

test("the listing at 360 px with its filters open passes axe", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto("/products?offset=1");
  await page.getByRole("button", { name: "Filters" }).click();
  await expect(page.getByRole("article").first()).toBeVisible();
  await expectNoSeriousAxeViolations(page);
});

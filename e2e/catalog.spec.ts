import { expect, test } from "./fixtures";

test("home shows real products from the demo catalogue with offline pictures", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle(/Voltio/);
  // Three category carousels appear once their products have loaded; their on-screen cards are articles.
  const cards = page.getByRole("article");
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBeGreaterThanOrEqual(3 * 4);
  // Card pictures are decorative (the title names the product), hence a plain img locator.
  const firstImage = cards.first().locator("img");
  await expect(firstImage).toHaveJSProperty("complete", true);
  expect(await firstImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});

test("searching 'logitec mose' from the header lists Logitech mice", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("combobox", { name: "Search products" }).fill("logitec mose");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/products\?search=logitec%20mose&offset=1$/);
  await expect(page.getByRole("heading", { name: "Logitech M510 Wireless Computer Mouse" })).toBeVisible();
  await expect(page.getByRole("heading", { name: /Logitech MX Master 2S/ })).toBeVisible();
});

test("an empty search is ignored", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("combobox", { name: "Search products" }).fill("   ");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
});

test("product detail shows price, categories and stock; unknown ids get a not-found page", async ({
  page,
}) => {
  await page.goto("/product/2");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Acer Aspire TC-1660/);
  await expect(page.getByText("US$ 549.00").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Pc Desktop", exact: true })).toHaveAttribute(
    "href",
    "/products?categoryId=2&offset=1",
  );
  await expect(page.getByText("Stock: 100")).toBeVisible();

  const reply = await page.goto("/product/99999");
  expect(reply?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Product Not Found!" })).toBeVisible();
});

test("unknown paths answer 404 with the not-found page", async ({ page }) => {
  const reply = await page.goto("/no/such/page");
  expect(reply?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("dark mode is remembered across visits", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Switch to dark mode" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.getByRole("button", { name: "Switch to light mode" }).click();
  await page.reload();
  await expect(page.locator("html")).not.toHaveClass(/dark/);
});

test("the language switch shows Spanish texts", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Language").selectOption("es");
  await expect(page.getByRole("link", { name: "Todos los productos" })).toBeVisible();
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
});

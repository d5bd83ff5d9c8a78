import { expect, test } from "./fixtures";

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

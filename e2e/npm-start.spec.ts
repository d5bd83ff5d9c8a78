import { expect, test } from "./fixtures";

/**
 * The README's `npm start` check: the store started on the embedded database (PGlite) with the demo store
 * seeded, its offline pictures and its demo logins. On CI the other journeys run on PostgreSQL: this one has a
 * server of its own on PGlite (playwright.config.ts, project npm-start).
 */

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

test("a demo product's page shows its price and pictures, and the demo logins README prints work", async ({
  page,
}) => {
  await page.goto("/product/11");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Logitech M510 Wireless Computer Mouse");
  await expect(page.getByRole("main").getByText("US$ 29.99").first()).toBeVisible();
  const picture = page.getByRole("region", { name: "Product pictures" }).locator("img").first();
  await expect(picture).toHaveJSProperty("complete", true);
  expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  for (const login of [
    { email: "admin@voltio.test", password: "Admin1234!" },
    { email: "shopper@voltio.test", password: "Shopper1234!" },
  ]) {
    const reply = await page.request.post("/api/user/login", { data: login });
    expect(reply.ok(), login.email).toBe(true);
  }
});

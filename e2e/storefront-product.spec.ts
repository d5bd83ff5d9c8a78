import { clickForToast, expect, newShopper, scrollToTheEnd, signIn, test, type Page } from "./fixtures";

/**
 * Journeys of /product/:id (docs/product-rules.md §1 Product detail, §8 Adding and Buy, §12 stock). What the server's HTML
 * shows (chips, price, badge, shipping, stock, the description's bullets) is checked without a browser:
 * apps/server/src/modules/web/storefront-html.test.ts.
 */

const slider = (page: Page) => page.getByRole("region", { name: "Product pictures" });
const mainPicture = (page: Page) => slider(page).locator("img").first();

test("the image slider has thumbnails and wraps around at both ends", async ({ page }) => {
  await page.goto("/product/11");
  const pictures = await page.request
    .get("/api/products/11")
    .then(async (reply) => (await reply.json()).images);
  expect(pictures.length).toBeGreaterThan(1);
  const urls = pictures.map((picture: { url: string }) => picture.url);
  await expect(mainPicture(page)).toHaveAttribute("src", urls[0]);
  await slider(page).getByRole("button", { name: "Previous picture" }).click();
  await expect(mainPicture(page)).toHaveAttribute("src", urls[urls.length - 1]);
  await slider(page).getByRole("button", { name: "Next picture" }).click();
  await expect(mainPicture(page)).toHaveAttribute("src", urls[0]);
  await slider(page).getByRole("button", { name: "Next picture" }).click();
  await expect(mainPicture(page)).toHaveAttribute("src", urls[1]);
  const thumbnails = slider(page).getByRole("button", { name: /^Show picture/ });
  await expect(thumbnails).toHaveCount(urls.length);
  await thumbnails.last().click();
  await expect(thumbnails.last()).toHaveAttribute("aria-current", "true");
  await expect(mainPicture(page)).toHaveAttribute("src", urls[urls.length - 1]);
  await slider(page).getByRole("button", { name: "Next picture" }).click();
  await expect(mainPicture(page)).toHaveAttribute("src", urls[0]);
});

test("cart and wishlist buttons toggle, with the SPEC's texts and toasts", async ({ page }) => {
  await page.goto("/product/11");
  await clickForToast(page, page.getByRole("button", { name: "Add to cart" }), "Added to the cart !");
  const added = page.getByRole("button", { name: "Added to the cart" });
  await expect(added).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("link", { name: "Shopping cart, 1 item" })).toBeVisible();
  await clickForToast(page, added, "Removed from the cart !");
  await expect(page.getByRole("button", { name: "Add to cart" })).toBeVisible();

  await clickForToast(page, page.getByRole("button", { name: "Add to wishlist" }), "Added to the wishlist !");
  await clickForToast(
    page,
    page.getByRole("button", { name: "In your wishlist" }),
    "Removed from wishlist !",
  );
});

test("guests pressing Buy get the login dialog, with a way to /login and a close button", async ({
  page,
}) => {
  await page.goto("/product/11");
  await page.getByRole("button", { name: "Buy now" }).click();
  const dialog = page.getByRole("dialog", { name: "You must be logged in to perform this action!" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Buy now" }).click();
  await page.getByRole("link", { name: "Log in/Sign up" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("without stock Buy is disabled and reads 'No Stock'", async ({ page }) => {
  await page.goto("/product/16");
  await expect(page.getByText("No stock available")).toBeVisible();
  await expect(page.getByRole("button", { name: "No Stock" })).toBeDisabled();
});

test("a signed-in shopper without an address gets the address dialog on Buy", async ({ page }) => {
  await signIn(page, await newShopper(page.request));
  await page.goto("/product/11");
  await page.getByRole("button", { name: "Buy now" }).click();
  const dialog = page.getByRole("dialog", { name: "You need to have an address to make the purchase!" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Register address" })).toHaveAttribute("href", "/user");
});

test("a signed-in shopper with an address buys one unit now and goes on to checkout", async ({ page }) => {
  await signIn(page, await newShopper(page.request, { address: true }));
  await page.goto("/product/11");
  await page.getByRole("button", { name: "Buy now" }).click();
  await expect(page).toHaveURL(/\/purchase\?orders=\d+$/);
  const pending = page.getByRole("region", { name: "Waiting for payment" });
  await expect(pending.getByRole("link", { name: /^Logitech M510/ })).toBeVisible();
  await expect(pending.getByText("1 unit")).toBeVisible();
});

for (const [width, pageSize] of [
  [1500, 5],
  [1000, 4],
  [800, 3],
  [500, 2],
] as const) {
  test(`the related carousel shows ${pageSize} products at ${width} px and wraps`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/product/11");
    await scrollToTheEnd(page);
    const related = page.getByRole("region", { name: "Related products" });
    await expect(related).toHaveAttribute("data-per-view", String(pageSize));
    const visible = related.locator('li[data-visible="true"]');
    await expect(visible).toHaveCount(pageSize);
    // The other products in stock of product 11's categories (Peripheral, Mouse).
    const others = new Set<number>();
    for (const categoryId of [4, 6]) {
      const { products } = await (
        await page.request.get(`/api/products?categoryId=${categoryId}&limit=100`)
      ).json();
      for (const { id } of products as { id: number }[]) if (id !== 11) others.add(id);
    }
    const pages = Math.ceil(others.size / pageSize);
    await expect(related.getByText(`1 / ${pages}`)).toBeVisible();
    const firstPage = await visible.allTextContents();
    await related.getByRole("button", { name: "Previous products" }).click();
    await expect(related.getByText(`${pages} / ${pages}`)).toBeVisible();
    await related.getByRole("button", { name: "Next products" }).click();
    await expect(related.getByText(`1 / ${pages}`)).toBeVisible();
    await expect(visible).toHaveText(firstPage);
    await expect(related.getByRole("article").filter({ hasText: "Logitech M510 Wireless" })).toHaveCount(0);
  });
}

test("an unknown product id gets the not-found page once the browser has drawn it", async ({ page }) => {
  // The server sends a 404 titled so (apps/server/src/modules/web/seo.test.ts) with the product's skeleton:
  // the heading is the browser's.
  await page.goto("/product/424242");
  await expect(page.getByRole("heading", { name: "Product Not Found!" })).toBeVisible();
  await page.goto("/product/abc");
  await expect(page.getByRole("heading", { name: "Product Not Found!" })).toBeVisible();
});

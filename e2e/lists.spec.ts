import { clickForToast, expect, logIn, newShopper, test } from "./fixtures";

/** docs/product-rules.md §8 Login: a guest's cart and wishlist become the shopper's orders on login. */

test("guest cart and wishlist merge into the shopper's lists on login; the heart then writes the server", async ({
  page,
}) => {
  const shopper = await newShopper(page.request);
  // The shopper's cart on the server already holds one Logitech M510: the guest's amount adds to it.
  const login = await page.request.post("/api/user/login", { data: shopper });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const seeded = await page.request.post("/api/order", {
    headers: { authorization: `Bearer ${accessToken}` },
    data: { status: "inCart", productId: 11, amount: 1 },
  });
  expect(seeded.status(), await seeded.text()).toBe(201);

  // As a guest: two products to the cart, one to the wishlist.
  await page.goto("/product/11");
  await clickForToast(page, page.getByRole("button", { name: "Add to cart" }), "Added to the cart !");
  await page.goto("/product/12");
  await clickForToast(page, page.getByRole("button", { name: "Add to cart" }), "Added to the cart !");
  await page.goto("/product/13");
  await clickForToast(page, page.getByRole("button", { name: "Add to wishlist" }), "Added to the wishlist !");
  // The second unit of the M510 (the guest cart page's plus, which this journey doesn't drive).
  await page.evaluate(() => {
    const cart = JSON.parse(localStorage.getItem("inCart")!) as { productId: number; amount: number }[];
    localStorage.setItem(
      "inCart",
      JSON.stringify(cart.map((line) => (line.productId === 11 ? { ...line, amount: 2 } : line))),
    );
  });
  await page.reload();
  await expect(page.getByRole("link", { name: "Shopping cart, 3 items" })).toBeVisible();

  await logIn(page, shopper);
  // 1 on the server + 2 from the guest, and 1 more product.
  const cartLink = page.getByRole("link", { name: "Shopping cart, 4 items" });
  await expect(cartLink).toBeVisible();
  await expect(page.getByRole("link", { name: "Wishlist, 1 product" })).toBeVisible();
  expect(
    await page.evaluate(() => [localStorage.getItem("inCart"), localStorage.getItem("inWishList")]),
  ).toEqual([null, null]);
  await cartLink.hover();
  await expect(page.getByText("Qty 3")).toBeVisible();
  await expect(page.getByText("Qty 1")).toBeVisible();

  // The signed-in shopper's heart removes the wishlist line on the server.
  await page.goto("/product/13");
  await clickForToast(
    page,
    page.getByRole("button", { name: "In your wishlist" }),
    "Removed from wishlist !",
  );
  await expect(page.getByRole("button", { name: "Add to wishlist" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Wishlist, 0 products" })).toBeVisible();

  await page.goto("/user");
  const overview = page.getByRole("region", { name: "Overview" });
  await overview.getByRole("tab", { name: "Wishlist" }).click();
  await expect(overview.getByText("Wishlist Empty")).toBeVisible();
  // The merged cart is the Overview's Cart too.
  await overview.getByRole("tab", { name: "Cart" }).click();
  await expect(overview.getByRole("link", { name: /Logitech M510/ })).toBeVisible();
});

test("a merge whose reply was lost is sent again with its key and applied once", async ({ page }) => {
  const shopper = await newShopper(page.request);
  await page.goto("/product/12");
  await clickForToast(page, page.getByRole("button", { name: "Add to cart" }), "Added to the cart !");

  // The server merges the first call, but its reply never reaches the browser (a dropped connection).
  let merges = 0;
  await page.route("**/api/order/merge", async (route) => {
    merges += 1;
    if (merges > 1) return route.continue();
    await route.fetch();
    await route.abort("connectionreset");
  });
  await logIn(page, shopper);
  // The signed-in page finds the guest cart still in storage and sends the same merge again.
  await expect.poll(() => page.evaluate(() => localStorage.getItem("inCart"))).toBeNull();
  expect(merges).toBe(2);
  await expect(page.getByRole("link", { name: "Shopping cart, 1 item" })).toBeVisible();
});

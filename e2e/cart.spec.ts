import {
  ADMIN,
  clickForToast,
  dollars,
  expect,
  expectNoSeriousAxeViolations,
  linePricer,
  logIn,
  newShopper,
  signIn,
  switchTheme,
  test,
  tokenOf,
  type Page,
} from "./fixtures";

/**
 * docs/product-rules.md §1 Cart and Wishlist, §8 Guest amount change and Buy flow: the cart and
 * wishlist screens of guests and shoppers, and the way from Buy All or Buy to /purchase.
 */

/** Demo products without sales but the store-wide 'Everything is 10% off on Fridays!'. */
const NEXIGO = { id: 12, title: /^NexiGo N60/, cents: 3999, shipping: "10.00" };
const COMBO = { id: 7, title: /^Logitech MK345/, cents: 4974, shipping: "15.89" };
const WEBCAM = { id: 20, title: /^Webcam HD 1080p/, cents: 2799, shipping: "11.50" };

/**
 * The cart's summary (ADR 0015, departing from docs/product-rules.md §12): products, every line's shipping added up, and a
 * total of both. Each entry is [the line's products in cents, its shipping in cents].
 */
async function expectCartFigures(page: Page, lines: (readonly [number, number])[]) {
  const products = lines.reduce((sum, [cents]) => sum + cents, 0);
  const shipping = lines.reduce((sum, [, cents]) => sum + cents, 0);
  await expect(page.getByTestId("cart-products")).toHaveText(`$${dollars(products)}`);
  await expect(page.getByTestId("cart-shipping")).toHaveText(`$${dollars(shipping)}`);
  await expect(page.getByTestId("cart-total")).toHaveText(`$${dollars(products + shipping)}`);
}
const cents = (shipping: string) => Math.round(Number(shipping) * 100);

/** The cart line whose title matches: the line's own controls are found inside it. */
const cartLine = (page: Page, title: RegExp) =>
  page
    .getByRole("region", { name: "Products in your cart" })
    .getByRole("listitem")
    .filter({
      has: page.getByRole("link", { name: title }),
    });

test("guest cart and wish merge on login; plus, minus and x update the totals; Buy All needs an address, then lands on /purchase", async ({
  page,
}) => {
  const price = await linePricer(page.request);
  const shopper = await newShopper(page.request);
  // The shopper's server cart already holds one NexiGo: the guest's amount adds to it.
  const seeded = await page.request.post("/api/order", {
    headers: { authorization: `Bearer ${await tokenOf(page.request, shopper)}` },
    data: { status: "inCart", productId: NEXIGO.id, amount: 1 },
  });
  expect(seeded.status(), await seeded.text()).toBe(201);

  // As a guest: three products to the cart and a wish.
  for (const product of [NEXIGO, COMBO, WEBCAM]) {
    await page.goto(`/product/${product.id}`);
    await clickForToast(page, page.getByRole("button", { name: "Add to cart" }), "Added to the cart !");
  }
  await page.goto("/product/13");
  await clickForToast(page, page.getByRole("button", { name: "Add to wishlist" }), "Added to the wishlist !");

  // The guest's own cart page: plus and minus change the stored amounts, priced in the browser.
  await page.goto("/cart");
  const guestNexigo = cartLine(page, NEXIGO.title);
  await guestNexigo.getByRole("button", { name: /^One more NexiGo/ }).click();
  await guestNexigo.getByRole("button", { name: /^One more NexiGo/ }).click();
  await guestNexigo.getByRole("button", { name: /^One less NexiGo/ }).click();
  await expect(guestNexigo.getByRole("status")).toHaveText("2");
  await expect(guestNexigo.getByText(`$${dollars(price(NEXIGO.cents, 2))}`)).toBeVisible();
  await expectCartFigures(page, [
    [price(NEXIGO.cents, 2), cents(NEXIGO.shipping)],
    [price(COMBO.cents, 1), cents(COMBO.shipping)],
    [price(WEBCAM.cents, 1), cents(WEBCAM.shipping)],
  ]);
  await expect(page.getByText("Shipping (each product ships on its own)")).toBeVisible();
  await expect(page.getByRole("link", { name: "Login to add an address" })).toHaveAttribute("href", "/login");
  await page.getByRole("button", { name: "Buy All" }).click();
  await expect(
    page.getByRole("dialog", { name: "You must be logged in to perform this action!" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();

  await logIn(page, shopper);
  // 1 on the server + 2 from the guest, and two more products; storage emptied.
  await expect(page.getByRole("link", { name: "Shopping cart, 5 items" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Wishlist, 1 product" })).toBeVisible();
  expect(
    await page.evaluate(() => [localStorage.getItem("inCart"), localStorage.getItem("inWishList")]),
  ).toEqual([null, null]);

  await page.goto("/cart");
  const nexigo = cartLine(page, NEXIGO.title);
  const combo = cartLine(page, COMBO.title);
  await expect(nexigo.getByRole("status")).toHaveText("3");
  await expect(nexigo.getByText(`ShippingCost: $${NEXIGO.shipping}`)).toBeVisible();
  await expect(nexigo.getByText("Stock: 100")).toBeVisible();
  await expect(nexigo.getByRole("link", { name: NEXIGO.title })).toHaveAttribute(
    "href",
    `/product/${NEXIGO.id}`,
  );
  // Each product present ships on its own, whatever its units.
  const total = (nexigo: number, combo: number, webcam: number) =>
    expectCartFigures(
      page,
      (
        [
          [NEXIGO, nexigo],
          [COMBO, combo],
          [WEBCAM, webcam],
        ] as const
      ).flatMap(([product, amount]) =>
        amount === 0 ? [] : [[price(product.cents, amount), cents(product.shipping)] as const],
      ),
    );
  await total(3, 1, 1);
  await expect(page.getByRole("link", { name: "Register address" })).toHaveAttribute("href", "/user");

  await combo.getByRole("button", { name: /^One more Logitech MK345/ }).click();
  await expect(combo.getByRole("status")).toHaveText("2");
  await total(3, 2, 1);
  await nexigo.getByRole("button", { name: /^One less NexiGo/ }).click();
  await total(2, 2, 1);
  await expect(combo.getByText(`$${dollars(price(COMBO.cents, 2))}`)).toBeVisible();
  await clickForToast(
    page,
    combo.getByRole("button", { name: /^Remove Logitech MK345/ }),
    "Deleted from cart!",
  );
  await expect(combo).toHaveCount(0);
  // The combo's shipping left with it.
  await total(2, 0, 1);
  // What the page shows is what the server keeps.
  await page.reload();
  await expect(cartLine(page, NEXIGO.title).getByRole("status")).toHaveText("2");
  await total(2, 0, 1);

  await page.getByRole("button", { name: "Buy All" }).click();
  const needAddress = page.getByRole("dialog", { name: "You need to have an address to make the purchase!" });
  await expect(needAddress.getByRole("link", { name: "Register address" })).toHaveAttribute("href", "/user");
  await needAddress.getByRole("button", { name: "Close" }).click();

  const added = await page.request.post("/api/user/direction", {
    headers: { authorization: `Bearer ${await tokenOf(page.request, shopper)}` },
    data: { city: "Lisbon", street: "Rua Augusta", streetNumber: "100", postalCode: "1100-053" },
  });
  expect(added.status(), await added.text()).toBe(201);
  await page.clock.install();
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Ship to" })).toHaveValue(/\d+/);
  await expect(page.getByRole("option", { name: "Lisbon, Rua Augusta 100" })).toBeAttached();

  // docs/product-rules.md §8: the cart reloads, and the shopper goes to /purchase 1 second later, on the page's clock.
  await page.clock.pauseAt(Date.now() + 5_000);
  const bulk = page.waitForResponse((response) => response.url().endsWith("/api/order/bulk"));
  await page.getByRole("button", { name: "Buy All" }).click();
  expect((await bulk).status()).toBe(201);
  // The lines stay, busy, until the shopper is on checkout: the emptied cart never shows. The
  // toast comes as the timer is set (after the lazily loaded toaster's own timers): the clock moves in small
  // steps until then.
  await expect(async () => {
    await page.clock.runFor(50);
    await expect(page.getByText("Your purchase is waiting for payment")).toBeVisible({ timeout: 100 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Going to checkout…" })).toBeDisabled();
  await expect(cartLine(page, NEXIGO.title)).toBeVisible();
  await expect(page.getByText("This cart is empty")).toHaveCount(0);
  await expect(page).toHaveURL(/\/cart$/);
  await page.clock.runFor(1000);
  await expect(page).toHaveURL(/\/purchase$/);
  await page.clock.resume();

  const bought = page.getByRole("region", { name: "Order of 2 products" });
  await expect(bought.getByRole("link", { name: NEXIGO.title })).toBeVisible();
  await expect(bought.getByRole("link", { name: WEBCAM.title })).toBeVisible();
  await expect(bought.getByText("2 units")).toBeVisible();
  await expect(bought.getByText(`$${dollars(price(NEXIGO.cents, 2))}`)).toBeVisible();
  await expect(page.getByRole("link", { name: "Shopping cart, 0 items" })).toBeVisible();
});

test("the wishlist: Add to cart moves the line to the cart, Buy goes to /purchase, x there removes it", async ({
  page,
}) => {
  const shopper = await newShopper(page.request, { address: true });
  const token = await tokenOf(page.request, shopper);
  for (const productId of [13, 17]) {
    const wished = await page.request.post("/api/order", {
      headers: { authorization: `Bearer ${token}` },
      data: { status: "inWishList", productId },
    });
    expect(wished.status(), await wished.text()).toBe(201);
  }
  await signIn(page, shopper);
  await page.goto("/wishlist");
  const keyboard = page.getByRole("article").filter({ has: page.getByRole("link", { name: /^Arteck/ }) });
  const mouse = page.getByRole("article").filter({ has: page.getByRole("link", { name: /^seenda/ }) });
  await expect(keyboard.getByText(/Shipping: u\$s 12\.00/)).toBeVisible();
  // 'Buy two mouses, get the third one free!' runs every day.
  await expect(mouse.getByText("100% OFF on 3º unit")).toBeVisible();

  await clickForToast(page, keyboard.getByRole("button", { name: "Add to cart" }), "Added to the cart !");
  await expect(keyboard).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Shopping cart, 1 item" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Wishlist, 1 product" })).toBeVisible();

  await mouse.getByRole("button", { name: "Buy", exact: true }).click();
  // That line only is bought now (ADR 0015).
  await expect(page).toHaveURL(/\/purchase\?orders=\d+$/);
  // The wished line itself became the purchase.
  await expect(page.getByRole("link", { name: "Wishlist, 0 products" })).toBeVisible();
  const pending = page.getByRole("region", { name: "Waiting for payment" });
  await expect(pending.getByRole("link", { name: /^seenda/ })).toBeVisible();
  await expect(pending.getByText("1 unit")).toBeVisible();
  await clickForToast(
    page,
    pending.getByRole("button", { name: /^Remove seenda .* from the purchase$/ }),
    "Removed from the purchase",
  );
  await expect(page.getByText("Nothing to pay")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to cart" })).toHaveAttribute("href", "/cart");
});

test("a guest's wishlist: Add to cart moves the product to the stored cart; Buy asks to log in", async ({
  page,
}) => {
  await page.goto("/product/17");
  await clickForToast(page, page.getByRole("button", { name: "Add to wishlist" }), "Added to the wishlist !");
  await page.goto("/Wishlist");
  const mouse = page.getByRole("article");
  await mouse.getByRole("button", { name: "Buy", exact: true }).click();
  await expect(
    page.getByRole("dialog", { name: "You must be logged in to perform this action!" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();
  await clickForToast(page, mouse.getByRole("button", { name: "Add to cart" }), "Added to the cart !");
  await expect(page.getByText("This Wishlist is empty")).toBeVisible();
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem("inCart") ?? "[]").length)).toBe(1);
  await page.getByRole("link", { name: "Shopping cart, 1 item" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(cartLine(page, /^seenda/).getByRole("status")).toHaveText("1");
});

test("admins have no cart, wishlist or checkout, and can't buy", async ({ page }) => {
  await logIn(page, ADMIN);
  await expect(page.getByRole("banner").getByRole("link", { name: /Shopping cart/ })).toHaveCount(0);
  for (const path of ["/cart", "/Wishlist", "/purchase"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
  }
  await page.goto("/product/12");
  await expect(page.getByRole("button", { name: "Buy now" })).toBeDisabled();
});

test("a filled cart and wishlist pass axe in both themes, at phone width too", async ({ page }) => {
  for (const id of [12, 17]) {
    await page.goto(`/product/${id}`);
    await clickForToast(page, page.getByRole("button", { name: "Add to cart" }), "Added to the cart !");
    await clickForToast(
      page,
      page.getByRole("button", { name: "Add to wishlist" }),
      "Added to the wishlist !",
    );
  }
  // Each page loads once: light at desktop width, then dark at phone width, switched in the same page.
  for (const [path, ready] of [
    ["/cart", page.getByTestId("cart-total")],
    ["/wishlist", page.getByRole("article").nth(1)],
  ] as const) {
    await page.setViewportSize({ width: 1280, height: 844 });
    await page.evaluate(() => localStorage.setItem("theme", "light"));
    await page.goto(path);
    await expect(ready).toBeVisible();
    await test.step(`${path} light, 1280 px`, () => expectNoSeriousAxeViolations(page));
    await switchTheme(page, "dark");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(ready).toBeVisible();
    await test.step(`${path} dark, 390 px`, () => expectNoSeriousAxeViolations(page));
  }
});

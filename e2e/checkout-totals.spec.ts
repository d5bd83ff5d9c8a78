import {
  clickForToast,
  dollars,
  expect,
  expectNoSeriousAxeViolations,
  linePricer,
  newShopper,
  payByCard,
  signIn,
  switchTheme,
  test,
  tokenOf,
  type Page,
} from "./fixtures";

/**
 * ADR 0015: one money rule on every screen (shipping adds up: each product ships
 * on its own), a "Buy now" that pays that product only, lines taken back from checkout to the cart, and a
 * "Buy All" that never shows an empty cart on its way to checkout.
 */

/** Demo products without sales but the store-wide 'Everything is 10% off on Fridays!'. */
const NEXIGO = { id: 12, title: /^NexiGo N60/, name: "NexiGo N60", cents: 3999, shippingCents: 1000 };
const COMBO = { id: 7, title: /^Logitech MK345/, name: "Logitech MK345", cents: 4974, shippingCents: 1589 };
const WEBCAM = {
  id: 20,
  title: /^Webcam HD 1080p/,
  name: "Webcam HD 1080p",
  cents: 2799,
  shippingCents: 1150,
};

type Shopper = Awaited<ReturnType<typeof newShopper>>;

/** The shopper's API, as the web app calls it. */
async function apiOf(page: Page, shopper: Shopper) {
  const headers = { authorization: `Bearer ${await tokenOf(page.request, shopper)}` };
  const post = async (url: string, data: unknown) => {
    const reply = await page.request.post(url, { headers, data });
    expect(reply.status(), await reply.text()).toBe(201);
    return (await reply.json()) as { id: number };
  };
  return {
    toCart: (productId: number, amount: number) =>
      post("/api/order", { status: "inCart", productId, amount }),
    buyNow: (productId: number, amount: number) =>
      post("/api/order", { status: "pending", productId, amount }),
    buyAll: async (lines: [number, number][]) => {
      const ids: number[] = [];
      for (const [productId, amount] of lines)
        ids.push((await post("/api/order", { status: "inCart", productId, amount })).id);
      return post("/api/order/bulk", { orderIds: ids });
    },
  };
}

/** Products, shipping and total as a screen shows them, by the test ids of `{prefix}-…`. */
async function figuresOf(page: Page, prefix: string) {
  const text = (name: string) => page.getByTestId(`${prefix}-${name}`).textContent();
  return { products: await text("products"), shipping: await text("shipping"), total: await text("total") };
}

const expected = (lines: (readonly [number, number])[]) => {
  const products = lines.reduce((sum, [cents]) => sum + cents, 0);
  const shipping = lines.reduce((sum, [, cents]) => sum + cents, 0);
  return {
    products: `$${dollars(products)}`,
    shipping: `$${dollars(shipping)}`,
    total: `$${dollars(products + shipping)}`,
  };
};

/**
 * Axe in both themes, at desktop and phone width, on what the page shows once `ready` is visible: light at
 * desktop width, then dark at phone width, switched in the same page (one load). Back to light and desktop.
 */
async function axeEverywhere(page: Page, ready: () => Promise<void>) {
  await page.setViewportSize({ width: 1280, height: 844 });
  await ready();
  await test.step("light, 1280 px", () => expectNoSeriousAxeViolations(page));
  await switchTheme(page, "dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await ready();
  await test.step("dark, 390 px", () => expectNoSeriousAxeViolations(page));
  await switchTheme(page, "light");
  await page.setViewportSize({ width: 1280, height: 844 });
}

test("the cart, the header's preview and checkout show the same products, shipping and total", async ({
  page,
}) => {
  const price = await linePricer(page.request);
  const shopper = await newShopper(page.request, { address: true });
  const api = await apiOf(page, shopper);
  await api.toCart(NEXIGO.id, 2);
  await api.toCart(COMBO.id, 1);
  await api.toCart(WEBCAM.id, 3);
  const figures = expected([
    [price(NEXIGO.cents, 2), NEXIGO.shippingCents],
    [price(COMBO.cents, 1), COMBO.shippingCents],
    [price(WEBCAM.cents, 3), WEBCAM.shippingCents],
  ]);

  await signIn(page, shopper);
  await page.goto("/cart");
  await expect(page.getByTestId("cart-total")).toHaveText(figures.total);
  expect(await figuresOf(page, "cart")).toEqual(figures);
  await expect(page.getByText("Shipping (each product ships on its own)")).toBeVisible();

  await page.getByRole("link", { name: "Shopping cart, 6 items" }).hover();
  await expect(page.getByTestId("preview-total")).toHaveText(figures.total);
  expect(await figuresOf(page, "preview")).toEqual(figures);
  await expectNoSeriousAxeViolations(page);
  await page.mouse.move(0, 600);

  await page.getByRole("button", { name: "Buy All" }).click();
  await expect(page).toHaveURL(/\/purchase$/);
  await expect(page.getByTestId("checkout-total")).toHaveText(figures.total);
  expect(await figuresOf(page, "checkout")).toEqual(figures);
  const pay = page.getByRole("button", { name: `Pay ${figures.total}` });
  await expect(pay).toBeEnabled();
  // The provider is asked for the same total.
  await pay.click();
  await expect(page.getByText(`Amount: US$ ${figures.total.slice(1)}`)).toBeVisible();
});

test("a Buy now while another purchase waits charges that product only", async ({ page }) => {
  const price = await linePricer(page.request);
  const shopper = await newShopper(page.request, { address: true });
  const api = await apiOf(page, shopper);
  // Bought earlier and never paid.
  await api.buyNow(NEXIGO.id, 2);
  const webcamOnly = expected([[price(WEBCAM.cents, 1), WEBCAM.shippingCents]]);

  await signIn(page, shopper);
  await page.goto(`/product/${WEBCAM.id}`);
  await page.getByRole("button", { name: "Buy now" }).click();
  await expect(page).toHaveURL(/\/purchase\?orders=\d+$/);
  const buying = page.getByRole("region", { name: "Waiting for payment" });
  await expect(buying.getByRole("link", { name: WEBCAM.title })).toBeVisible();
  await expect(buying.getByRole("link", { name: NEXIGO.title })).toHaveCount(0);
  const waiting = page.getByRole("region", { name: "Also waiting to be paid" });
  await expect(waiting.getByRole("link", { name: NEXIGO.title })).toBeVisible();
  await expect(waiting.getByRole("button", { name: /^Add to this purchase: NexiGo N60/ })).toBeVisible();
  expect(await figuresOf(page, "checkout")).toEqual(webcamOnly);

  await page.getByRole("button", { name: `Pay ${webcamOnly.total}` }).click();
  await expect(page.getByText(`Amount: US$ ${webcamOnly.total.slice(1)}`)).toBeVisible();
  // Declined: "Try again" goes back to this purchase, not to everything pending.
  await payByCard(page, "4000 0000 0000 0002");
  await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page).toHaveURL(/\/purchase\?orders=\d+$/);
  await page.getByRole("button", { name: `Pay ${webcamOnly.total}` }).click();
  await expect(page.getByText(`Amount: US$ ${webcamOnly.total.slice(1)}`)).toBeVisible();
  await payByCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { name: "Purchase successful" })).toBeVisible();

  // The earlier purchase still waits, whole, for its own payment.
  await page.goto("/purchase");
  const left = page.getByRole("region", { name: "Waiting for payment" });
  await expect(left.getByRole("link", { name: NEXIGO.title })).toBeVisible();
  await expect(page.getByTestId("checkout-total")).toHaveText(
    expected([[price(NEXIGO.cents, 2), NEXIGO.shippingCents]]).total,
  );
});

test("lines and a whole order go back from checkout to the cart, merged with what is there", async ({
  page,
}) => {
  const price = await linePricer(page.request);
  const shopper = await newShopper(page.request, { address: true });
  const api = await apiOf(page, shopper);
  await api.toCart(NEXIGO.id, 1);
  const single = await api.buyNow(NEXIGO.id, 2);
  await api.buyAll([
    [COMBO.id, 1],
    [WEBCAM.id, 2],
  ]);

  await signIn(page, shopper);
  // The cart says what waits in checkout, and leads there.
  await page.goto("/cart");
  await expect(page.getByText("3 products are waiting to be paid in checkout.")).toBeVisible();
  await axeEverywhere(page, () => expect(page.getByTestId("cart-total")).toBeVisible());

  // After a Buy now the bulk order waits apart; added, it joins this purchase.
  await page.goto(`/purchase?orders=${single.id}`);
  const waiting = page.getByRole("region", { name: "Also waiting to be paid" });
  await expect(waiting.getByRole("region", { name: "Order of 2 products" })).toBeVisible();
  await axeEverywhere(page, () =>
    expect(page.getByRole("region", { name: "Also waiting to be paid" })).toBeVisible(),
  );
  await waiting.getByRole("button", { name: "Add this order to the purchase" }).click();
  await expect(page).toHaveURL(/orders=\d+&bulk=\d+$/);
  await expect(waiting).toHaveCount(0);
  const all = expected([
    [price(NEXIGO.cents, 2), NEXIGO.shippingCents],
    [price(COMBO.cents, 1), COMBO.shippingCents],
    [price(WEBCAM.cents, 2), WEBCAM.shippingCents],
  ]);
  await expect(page.getByTestId("checkout-total")).toHaveText(all.total);

  // One line back: it joins the cart's line of the same product.
  await clickForToast(
    page,
    page.getByRole("button", { name: /^Back to cart: NexiGo N60/ }),
    "Back in your cart",
  );
  await expect(page.getByRole("region", { name: "Waiting for payment" })).toHaveCount(0);
  await expect(page.getByTestId("checkout-total")).toHaveText(
    expected([
      [price(COMBO.cents, 1), COMBO.shippingCents],
      [price(WEBCAM.cents, 2), WEBCAM.shippingCents],
    ]).total,
  );
  // The whole order back.
  await clickForToast(
    page,
    page.getByRole("button", { name: "Put the whole order back in the cart" }),
    "Back in your cart",
  );
  await expect(page.getByText("Nothing to pay")).toBeVisible();

  await page.getByRole("link", { name: "Go to cart" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  const amountOf = (title: RegExp) =>
    page
      .getByRole("region", { name: "Products in your cart" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: title }) })
      .getByRole("status");
  await expect(amountOf(NEXIGO.title)).toHaveText("3");
  await expect(amountOf(COMBO.title)).toHaveText("1");
  await expect(amountOf(WEBCAM.title)).toHaveText("2");
  await expect(page.getByText(/waiting to be paid in checkout/)).toHaveCount(0);
  expect(await figuresOf(page, "cart")).toEqual(
    expected([
      [price(NEXIGO.cents, 3), NEXIGO.shippingCents],
      [price(COMBO.cents, 1), COMBO.shippingCents],
      [price(WEBCAM.cents, 2), WEBCAM.shippingCents],
    ]),
  );
});

test("Buy All goes on to checkout without the cart ever showing 'This cart is empty'", async ({ page }) => {
  const shopper = await newShopper(page.request, { address: true });
  const api = await apiOf(page, shopper);
  await api.toCart(NEXIGO.id, 1);
  await api.toCart(WEBCAM.id, 1);
  await signIn(page, shopper);
  await page.goto("/cart");
  await expect(page.getByTestId("cart-total")).toBeVisible();

  // Watches every change of the page from now on: the empty cart's text must never appear, even for a frame.
  await page.evaluate(() => {
    const seen = { empty: false };
    (window as unknown as { cartWatch: typeof seen }).cartWatch = seen;
    const check = () => {
      if (document.body.textContent?.includes("This cart is empty")) seen.empty = true;
    };
    new MutationObserver(check).observe(document.body, {
      childList: true,
      subtree: true,
      characterData: true,
    });
    check();
  });
  await page.getByRole("button", { name: "Buy All" }).click();
  await expect(page).toHaveURL(/\/purchase$/);
  await expect(page.getByRole("region", { name: "Order of 2 products" })).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { cartWatch: { empty: boolean } }).cartWatch),
  ).toEqual({ empty: false });
});

import {
  mailTo,
  clickForToast,
  dollars,
  expect,
  linePricer,
  logIn,
  newShopper,
  payByCard,
  signIn,
  test,
  tokenOf,
  expectNoSeriousAxeViolations,
} from "./fixtures";

/**
 * docs/product-rules.md §1 Checkout, Payment result, Purchases history: from the guest's cart through the
 * sandbox's card page to 'Purchase successful', the purchase history and the confirmation e-mail; a declined
 * card leaves everything pending.
 */

/** Demo products without sales but the store-wide 'Everything is 10% off on Fridays!'. */
const NEXIGO = { id: 12, title: /^NexiGo N60/, cents: 3999, shippingCents: 1000 };
const WEBCAM = { id: 20, title: /^Webcam HD 1080p/, cents: 2799, shippingCents: 1150 };

test("guest adds two products, logs in, Buy All, pays with the approving card: successful, in the history, confirmed by e-mail", async ({
  page,
}) => {
  const price = await linePricer(page.request);
  const shopper = await newShopper(page.request, { address: true });
  for (const product of [NEXIGO, WEBCAM]) {
    await page.goto(`/product/${product.id}`);
    await clickForToast(page, page.getByRole("button", { name: "Add to cart" }), "Added to the cart !");
  }
  await logIn(page, shopper);
  await page.goto("/cart");
  await page.getByRole("button", { name: "Buy All" }).click();
  await expect(page).toHaveURL(/\/purchase$/);

  // The sums as the server snapshotted them: products, every line's shipping added up (ADR 0015: each
  // product ships on its own, and the summary says so), and the total.
  const products = price(NEXIGO.cents, 1) + price(WEBCAM.cents, 1);
  const shipping = NEXIGO.shippingCents + WEBCAM.shippingCents;
  const summary = page.getByRole("complementary", { name: "Payment" });
  await expect(summary.getByTestId("checkout-products")).toHaveText(`$${dollars(products)}`);
  await expect(summary.getByTestId("checkout-shipping")).toHaveText(`$${dollars(shipping)}`);
  await expect(summary.getByText("Shipping (each product ships on its own)")).toBeVisible();
  await expect(summary.getByTestId("checkout-total")).toHaveText(`$${dollars(products + shipping)}`);
  await expect(summary.getByRole("combobox", { name: "Ship to" })).toHaveValue(/\d+/);
  await expect(summary.getByRole("option", { name: "Lisbon" })).toBeAttached();
  await expectNoSeriousAxeViolations(page);

  await summary.getByRole("button", { name: `Pay $${dollars(products + shipping)}` }).click();
  await expect(page.getByText(`Amount: US$ ${dollars(products + shipping)}`)).toBeVisible();
  await payByCard(page, "4242 4242 4242 4242");

  await expect(page).toHaveURL(/\/purchase\/success\?/);
  await expect(page.getByRole("heading", { name: "Purchase successful" })).toBeVisible();
  const bought = page.getByRole("region", { name: "What you bought" });
  await expect(bought.getByText(NEXIGO.title)).toBeVisible();
  await expect(bought.getByText(WEBCAM.title)).toBeVisible();
  await expect(bought.getByText("Ship to Rua Augusta 100, Lisbon")).toBeVisible();
  // Coming back to the same return address finishes nothing twice and still says so.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Purchase successful" })).toBeVisible();

  await page.getByRole("link", { name: "See your purchases" }).click();
  await expect(page).toHaveURL(/\/purchases$/);
  await expect(page.getByRole("heading", { name: "Your Purchases" })).toBeVisible();
  for (const product of [NEXIGO, WEBCAM]) {
    const card = page.getByRole("link", { name: product.title });
    await expect(card).toHaveAttribute("href", `/product/${product.id}`);
    await expect(card.getByText("Paid")).toBeVisible();
  }
  await page.goto("/purchase");
  await expect(page.getByText("Nothing to pay")).toBeVisible();

  await expect
    .poll(async () => (await mailTo(shopper.email)).filter((mail) => /confirmed/i.test(mail)).length)
    .toBe(1);
  const [confirmation] = (await mailTo(shopper.email)).filter((mail) => /confirmed/i.test(mail));
  expect(confirmation).toContain(`Total: US$ ${dollars(products + shipping)}`);
  expect(confirmation).toContain("Rua Augusta 100");
});

test("a declined card says 'Payment declined' with a way back, a pending one the pending screen, and nothing is finished", async ({
  page,
}) => {
  const shopper = await newShopper(page.request, { address: true });
  const token = await tokenOf(page.request, shopper);
  const headers = { authorization: `Bearer ${token}` };
  const bought = await page.request.post("/api/order", {
    headers,
    data: { status: "pending", productId: NEXIGO.id, amount: 1 },
  });
  expect(bought.status(), await bought.text()).toBe(201);
  await signIn(page, shopper);

  await page.goto("/purchase");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await payByCard(page, "4000 0000 0000 0002");
  await expect(page).toHaveURL(/\/purchase\/failure\?/);
  // A declined card is never 'Your payment is pending'.
  await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
  await expect(page.getByText("Reason given: Your card was declined.")).toBeVisible();

  // Back to /purchase: the line is still there to pay; this card leaves the payment pending.
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page.getByRole("link", { name: NEXIGO.title })).toBeVisible();
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await payByCard(page, "4000 0000 0000 9995");
  await expect(page.getByRole("heading", { name: "Your payment is pending" })).toBeVisible();
  await expect(
    page.getByText("We'll finish your purchase as soon as the payment is approved."),
  ).toBeVisible();

  const finished = await page.request.get("/api/order?status=finished", { headers });
  expect(await finished.json()).toEqual([]);
  const pending = await page.request.get("/api/order?status=pending", { headers });
  expect(await pending.json()).toHaveLength(1);
});

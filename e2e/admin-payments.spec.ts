import {
  ADMIN,
  clickForToast,
  expect,
  expectNoSeriousAxeViolations,
  expectNoSeriousAxeViolationsInBothThemes,
  newProduct,
  newShopper,
  payByCard,
  signIn,
  test,
  tokenOf,
  uniqueName,
  waitForHydration,
  shopperAtCheckout,
} from "./fixtures";

/**
 * Truthful payment results and the back office's Payments screen. A shopper's card is declined
 * ('Payment declined', the provider's reason, 'Try again'), then an approving card buys the purchase
 * ('Purchase successful' with its V-number, shown in the history too); the admin finds that payment in
 * Payments and refunds it in full through the confirmation. Also: Pay refused because another shopper's
 * checkout holds the units names the product and how many are left, and the shopper cuts the purchase down.
 */

test("a declined card, then an approving one; the admin finds the payment in Payments and refunds it in full", async ({
  page,
  browser,
  baseURL,
}) => {
  const webcam = await newProduct(page.request, { name: "E2E webcam" });
  const { shopperPage, shopperContext, userId } = await shopperAtCheckout(page, browser, {
    baseURL,
    productId: webcam.id,
  });

  // The declined card: 'Payment declined' with the provider's reason, never 'pending', and 'Try again'.
  const total = ((await shopperPage.getByTestId("checkout-total").textContent()) ?? "").replace("$", "");
  expect(total).toMatch(/^\d+\.\d{2}$/);
  await shopperPage.getByRole("button", { name: `Pay $${total}` }).click();
  await payByCard(shopperPage, "4000 0000 0000 0002");
  await expect(shopperPage).toHaveURL(/\/purchase\/failure\?/);
  await expect(shopperPage.getByRole("heading", { level: 1, name: "Payment declined" })).toBeVisible();
  await expect(shopperPage.getByText("Reason given: Your card was declined.")).toBeVisible();
  await expect(shopperPage.getByText("Your payment is pending")).toHaveCount(0);
  await expectNoSeriousAxeViolations(shopperPage);

  // Try again: back at checkout, the approving card buys it, and the page shows the purchase's number.
  await shopperPage.getByRole("link", { name: "Try again" }).click();
  await expect(shopperPage).toHaveURL(/\/purchase$/);
  await shopperPage.getByRole("button", { name: `Pay $${total}` }).click();
  await payByCard(shopperPage, "4242 4242 4242 4242");
  await expect(shopperPage).toHaveURL(/\/purchase\/success\?/);
  await expect(shopperPage.getByRole("heading", { level: 1, name: "Purchase successful" })).toBeVisible();
  const numberText = shopperPage.getByText(/^V-\d{6}$/);
  await expect(numberText).toBeVisible();
  const number = (await numberText.textContent())!;
  // The history says it too, on the purchase's card.
  await shopperPage.getByRole("link", { name: "See your purchases" }).click();
  const card = shopperPage.getByRole("link", { name: webcam.title });
  await expect(card.getByText(`Order ${number}`)).toBeVisible();

  // The admin opens Payments from the menu and narrows it to the shopper: the URL keeps the filter.
  await signIn(page, ADMIN);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Payments" }).click();
  await expect(page).toHaveURL(/\/admin\/payments$/);
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  await page.getByLabel("User id").fill(String(userId));
  await page.getByRole("button", { name: "Filter" }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get("userId")).toBe(String(userId));
  const table = page.getByRole("region", { name: "Payments" }).getByRole("table");
  const row = table.getByRole("row").filter({ hasText: number }).filter({ hasText: "Approved" });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell", { name: `US$ ${total}`, exact: true })).toHaveCount(1);
  await expect(row.getByRole("cell", { name: "US$ 0.00", exact: true })).toBeVisible();
  await expect(row.getByRole("link", { name: `Orders of user ${userId}` })).toHaveAttribute(
    "href",
    `/admin/orders?userId=${userId}`,
  );
  await expect(row).toContainText("sandbox");

  // Refund: the amount is all that is left; the reason is required; a confirmation says what happens.
  await row.getByRole("button", { name: `Refund payment ${number}` }).click();
  const dialog = page.getByRole("dialog", { name: `Refund payment ${number}` });
  await expect(dialog.getByLabel("Amount to refund (US$)")).toHaveValue(total);
  await dialog.getByRole("button", { name: "Review refund" }).click();
  await expect(dialog.getByText("Reason is required")).toBeVisible();
  await expect(dialog.getByLabel("Reason")).toBeFocused();
  await expectNoSeriousAxeViolations(page);
  await dialog.getByLabel("Reason").fill("The customer changed their mind");
  await dialog.getByRole("button", { name: "Review refund" }).click();
  await expect(dialog.getByText(`Refund US$ ${total}?`)).toBeVisible();
  await expect(dialog.getByText(/It is all that is left/)).toBeVisible();
  await clickForToast(
    page,
    dialog.getByRole("button", { name: `Refund US$ ${total}` }),
    `Refund of US$ ${total} requested for payment ${number}; its orders were cancelled`,
  );
  await expect(dialog).toBeHidden();
  // The provider takes it a moment later: the list shows it refunded, with nothing left to refund.
  await expect(row.getByRole("cell", { name: `US$ ${total}`, exact: true })).toHaveCount(2, {
    timeout: 20_000,
  });
  await expect(row.getByText("Refunded in full")).toBeVisible();
  await expect(row.getByRole("button", { name: /^Refund/ })).toHaveCount(0);

  // The Payments screen reads well for axe in both themes.
  await expectNoSeriousAxeViolationsInBothThemes(page);

  // The order carries the number in All Orders, and the shopper sees the purchase cancelled.
  await row.getByRole("link", { name: `Orders of user ${userId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders\\?userId=${userId}$`));
  await expect(page.getByRole("button", { name: /Order #\d+/ })).toContainText(number);
  await shopperPage.reload();
  await expect(card.getByText("Cancelled")).toBeVisible();
  await shopperContext.close();
});

test("Pay refused because another shopper's checkout holds the units: which product, how many left, and the purchase cut down to them", async ({
  page,
  baseURL,
}) => {
  // A product of this test's own with 3 units; this shopper wants 2, another one 2 and is paying for them.
  const title = uniqueName("E2E held stock");
  const { id: productId } = await newProduct(page.request, {
    title,
    name: "E2E held stock",
    price: "20",
    shippingCost: "2",
    description: "Three units, four wanted.",
    stock: 3,
  });
  const [shopper, other] = await Promise.all([
    newShopper(page.request, { address: true }),
    newShopper(page.request, { address: true }),
  ]);
  for (const buyer of [shopper, other]) {
    const bought = await page.request.post("/api/order", {
      headers: { authorization: `Bearer ${await tokenOf(page.request, buyer)}` },
      data: { status: "pending", productId, amount: 2 },
    });
    expect(bought.status(), await bought.text()).toBe(201);
  }
  const held = await page.request.post("/api/sandbox/pay", {
    headers: { authorization: `Bearer ${await tokenOf(page.request, other)}` },
    data: { baseURL },
  });
  expect(held.status(), await held.text()).toBe(200);

  await signIn(page, shopper);
  await page.goto("/purchase");
  await waitForHydration(page);
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  const alert = page.getByRole("alert").filter({ hasText: title });
  await expect(alert).toContainText(
    `Only 1 unit of ${title} is left: other shoppers are paying for the rest right now.`,
  );
  await expect(page).toHaveURL(/\/purchase$/);
  await clickForToast(
    page,
    alert.getByRole("button", { name: "Buy 1 unit instead" }),
    `Now 1 unit of ${title}: you can pay`,
  );
  const pending = page.getByRole("region", { name: "Waiting for payment" });
  await expect(pending.getByRole("listitem").filter({ hasText: title })).toContainText("1 unit");
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/pay\/sandbox\//);
});

import { readFile } from "node:fs/promises";
import {
  mailTo,
  ADMIN,
  expect,
  payByCard,
  signIn,
  test,
  tokenOf,
  waitForHydration,
  expectNoSeriousAxeViolations,
  expectNoSeriousAxeViolationsInBothThemes,
  newProduct,
  retireProduct,
  shopperAtCheckout,
} from "./fixtures";

/**
 * docs/product-rules.md §1 Admin orders 'All Orders', §8 Admin order status: a new shopper pays with
 * the sandbox's approving card; the admin finds the order by user id, opens it to its products, address and
 * payment reference, exports it, and moves it to onDelivery — the shopper's /purchases shows it and an
 * e-mail tells them.
 */

/** docs/product-rules.md §1: 'MMMM D, YYYY', the day the server recorded (UTC). */
const longDate = (date: Date) =>
  new Intl.DateTimeFormat("en-US", {
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(date);

test("a paid order: found by user id, opened, exported, moved to onDelivery — the shopper sees it and is told by e-mail", async ({
  page,
  browser,
  baseURL,
}) => {
  // The shopper buys a webcam of this test's own and pays with the approving card, in a browser of their own.
  const webcam = await newProduct(page.request, { name: "E2E webcam" });
  const { shopper, shopperPage, shopperContext, userId } = await shopperAtCheckout(page, browser, {
    baseURL,
    productId: webcam.id,
  });
  await shopperPage.getByRole("button", { name: /^Pay \$/ }).click();
  await payByCard(shopperPage, "4242 4242 4242 4242");
  await expect(shopperPage).toHaveURL(/\/purchase\/success\?/);
  await expect(shopperPage.getByRole("heading", { name: "Purchase successful" })).toBeVisible();

  // The admin lists that shopper's orders: the filter is in the URL and in the box.
  await signIn(page, ADMIN);
  await page.goto(`/admin/orders?userId=${userId}`);
  await expect(page.getByRole("heading", { level: 1, name: "All Orders" })).toBeVisible();
  await expect(page.getByLabel("User id")).toHaveValue(String(userId));
  const table = page.getByRole("region", { name: "All Orders" }).getByRole("table");
  const opener = table.getByRole("button", { name: /Order #\d+/ });
  await expect(opener).toHaveCount(1);
  await expect(opener).toContainText(longDate(new Date()));
  await expect(opener).toHaveAttribute("aria-expanded", "false");
  // The purchase's one number, beside the order's id.
  await expect(opener).toContainText(/ · V-\d{6}$/);
  const orderName = /(?:Bulk order|Order) #\d+/.exec((await opener.textContent()) ?? "")![0];
  const number = /V-\d{6}/.exec((await opener.textContent()) ?? "")![0];
  const row = table.getByRole("row").filter({ has: page.getByRole("button", { name: orderName }) });
  await expect(row.getByRole("cell", { name: String(userId), exact: true })).toBeVisible();
  await expect(row.getByRole("cell", { name: /^US\$ \d+\.\d{2}$/ })).toBeVisible();

  // Clicking the row opens it: products and prices, the shipping address, the payment reference.
  // Without a page, SPEC's plain list, newest first.
  const [order] = (await (
    await page.request.get(`/api/order/admin/bulk?userId=${userId}`, {
      headers: { authorization: `Bearer ${await tokenOf(page.request, ADMIN)}` },
    })
  ).json()) as { purchaseId: string | null }[];
  expect(order?.purchaseId).toBeTruthy();
  await row.getByRole("cell", { name: /^US\$/ }).click();
  await expect(opener).toHaveAttribute("aria-expanded", "true");
  const details = page.locator(`#${await opener.getAttribute("aria-controls")}`);
  await expect(details).toBeVisible();
  await expect(details).toContainText(webcam.title);
  await expect(details).toContainText("Rua Augusta 100");
  await expect(details).toContainText("1100-053 Lisbon");
  await expect(details).toContainText(`Payment reference: ${order!.purchaseId}`);
  // And the keyboard closes it again, on the row's button.
  await opener.focus();
  await page.keyboard.press("Enter");
  await expect(opener).toHaveAttribute("aria-expanded", "false");
  await expect(details).toBeHidden();
  await page.keyboard.press("Space");
  await expect(details).toBeVisible();

  // 'Export CSV' saves the filtered orders, fetched with the admin's token.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await file.path())!, "utf8");
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toMatch(/^"?kind"?,"?id"?,"?userId"?/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(shopper.email);
  expect(lines[1]).toContain(order!.purchaseId!);

  // The status selector: paid, so 'Finished'; moved to 'On delivery'.
  const status = row.getByRole("combobox", { name: `Status of ${orderName}` });
  await expect(status).toHaveValue("finished");
  const toast = page.getByText(`${orderName} is now On delivery`).waitFor({ state: "visible" });
  await status.selectOption("onDelivery");
  // Every status change is confirmed first; shipping may name the parcel, left empty here.
  await page
    .getByRole("alertdialog", { name: `Move ${orderName} to On delivery?` })
    .getByRole("button", { name: "Accept" })
    .click();
  await toast;
  await expect(status).toHaveValue("onDelivery");

  // The shopper's history says so, and an e-mail tells them.
  await shopperPage.goto("/purchases");
  await waitForHydration(shopperPage);
  const card = shopperPage.getByRole("link", { name: webcam.title });
  await expect(card.getByText("On its way")).toBeVisible();
  // The e-mail names the purchase by the number the shopper saw when paying.
  const onItsWay = `Your order ${number} is on its way.`;
  await expect
    .poll(async () => (await mailTo(shopper.email)).filter((mail) => mail.includes(onItsWay)).length)
    .toBe(1);
  await shopperContext.close();

  // The filters narrow the list, in the URL: the order isn't flagged, and it's no longer 'Finished'.
  // The box follows the URL: clicked, it shows its new state once the page moved to the new filters.
  await page.getByLabel("Flagged only").click();
  await expect(page.getByLabel("Flagged only")).toBeChecked();
  await expect.poll(() => new URL(page.url()).searchParams.get("flagged")).toBe("true");
  expect(new URL(page.url()).searchParams.get("userId")).toBe(String(userId));
  await expect(page.getByText("No orders match these filters.")).toBeVisible();
  await page.getByLabel("Flagged only").click();
  await expect(page.getByLabel("Flagged only")).not.toBeChecked();
  await page.getByLabel("Status", { exact: true }).selectOption("finished");
  await expect(page.getByText("No orders match these filters.")).toBeVisible();
  await page.getByLabel("Status", { exact: true }).selectOption("onDelivery");
  await expect(opener).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/admin\/orders$/);
  await expect(page.getByLabel("User id")).toHaveValue("");
  await retireProduct(page.request, webcam.id);
});

test("a paid order whose product was withdrawn while paying stands out as refunded, and can't be reopened", async ({
  page,
  browser,
  baseURL,
}) => {
  // A product of this test's own with one unit, withdrawn while the shopper is on the card page (the
  // checkout holds its unit, so an edit of the stock can no longer take it away; withdrawing the product can).
  const admin = { authorization: `Bearer ${await tokenOf(page.request, ADMIN)}` };
  const { id: productId } = await newProduct(page.request, {
    name: "E2E last unit",
    price: "12.50",
    shippingCost: "3",
    description: "The only unit, bought twice.",
    stock: 1,
  });
  const { shopperPage, shopperContext, userId } = await shopperAtCheckout(page, browser, {
    baseURL,
    productId,
  });
  await shopperPage.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(shopperPage).toHaveURL(/\/pay\/sandbox\//);
  const withdrawn = await page.request.delete(`/api/products/${productId}`, { headers: admin });
  expect(withdrawn.ok(), await withdrawn.text()).toBe(true);
  await payByCard(shopperPage, "4242 4242 4242 4242");
  await expect(shopperPage).toHaveURL(/\/purchase\/(success|failure)\?/);
  // Paid, but it can't be delivered: the page says the money is going back, not 'successful'.
  await expect(
    shopperPage.getByRole("heading", { level: 1, name: "Your payment is being refunded" }),
  ).toBeVisible();
  await shopperContext.close();

  // 'Flagged only' finds it: the badge and the tinted row.
  await signIn(page, ADMIN);
  await page.goto(`/admin/orders?userId=${userId}&flagged=true`);
  await expect(page.getByLabel("Flagged only")).toBeChecked();
  const table = page.getByRole("region", { name: "All Orders" }).getByRole("table");
  const opener = table.getByRole("button", { name: /Order #\d+/ });
  await expect(opener).toHaveCount(1);
  const orderName = /Order #\d+/.exec((await opener.textContent()) ?? "")![0];
  const row = table.getByRole("row").filter({ has: page.getByRole("button", { name: orderName }) });
  // 'Refund needed' until the provider takes the automatic refund, 'Refunded' after.
  await expect(row.getByText(/^(Refund needed|Refunded)$/)).toBeVisible();
  const status = row.getByRole("combobox", { name: `Status of ${orderName}` });
  // Cancelled when the payment found the product gone; its money went back, so it can't be reopened.
  await expect(status).toHaveValue("cancelled");
  // The moves table (packages/domain/src/transitions.ts) offers no way back to a paid status: greyed out.
  for (const paid of ["finished", "preparing", "onDelivery", "delivered"])
    await expect(status.locator(`option[value="${paid}"]`)).toBeDisabled();
  // The badge and the tinted row read well enough for axe too.
  await expectNoSeriousAxeViolations(page);
  // And the server refuses the move when asked directly, with the same reason.
  const list = await page.request.get(`/api/order/admin/bulk?userId=${userId}&flagged=true&page=1`, {
    headers: admin,
  });
  const [order] = (await list.json()).orders as { id: number; kind: "order" | "bulk" }[];
  const reopened = await page.request.put(
    order!.kind === "bulk" ? `/api/order/bulk/${order!.id}` : `/api/order/admin/${order!.id}`,
    { headers: admin, data: { status: "finished" } },
  );
  expect(reopened.status()).toBe(409);
  expect((await reopened.json()).error).toMatch(/^This order's payment was refunded/);
  await page.reload();
  await expect(status).toHaveValue("cancelled");
});

test("/admin/order/{id} is the SPEC's placeholder text, pointing to All Orders", async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto("/admin/order/7");
  await expect(page.getByRole("heading", { level: 1, name: "Order #7" })).toBeVisible();
  await page.getByRole("link", { name: "Go to All Orders" }).click();
  await expect(page).toHaveURL(/\/admin\/orders$/);
  await expect(page.getByRole("heading", { level: 1, name: "All Orders" })).toBeVisible();
});

test("All Orders, a row opened, passes axe in both themes", async ({ page }) => {
  await signIn(page, ADMIN);
  // The newest orders (the demo shopper's past ones at least).
  await page.goto("/admin/orders");
  const opener = page.getByRole("button", { name: /Order #\d+/ }).first();
  await opener.click();
  await expect(opener).toHaveAttribute("aria-expanded", "true");
  await expectNoSeriousAxeViolationsInBothThemes(page);
});

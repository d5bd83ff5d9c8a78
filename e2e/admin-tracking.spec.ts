import {
  ADMIN,
  expect,
  expectNoSeriousAxeViolations,
  mailTo,
  newProduct,
  newShopper,
  signIn,
  test,
  tokenOf,
  readableMail,
} from "./fixtures";

/**
 * Tracking: the admin finds a shopper's purchase by its number, moves it to 'On
 * delivery' after confirming, with a tracking number and carrier; the shopper's e-mail and order page show
 * them with the carrier's tracking link. The shopper pays through the API (the card page is checkout's), for a
 * product of this test's own.
 */

test("the admin ships a purchase with a tracking number: the e-mail and the order page show it with the carrier's link", async ({
  page,
  browser,
  baseURL,
}) => {
  const { id: productId } = await newProduct(page.request);
  const shopper = await newShopper(page.request, { address: true });
  const token = await tokenOf(page.request, shopper);
  const headers = { authorization: `Bearer ${token}` };
  expect(
    (
      await page.request.post("/api/order", {
        headers,
        data: { status: "pending", productId, amount: 1 },
      })
    ).status(),
  ).toBe(201);
  const pay = await page.request.post("/api/sandbox/pay", { headers, data: { baseURL } });
  expect(pay.status(), await pay.text()).toBe(200);
  // The sandbox's card page, answered as its form does; the store hears of it on its return page.
  const chargePath = new URL((await pay.json()).init_point as string).pathname;
  const carded = await page.request.post(chargePath, {
    form: { number: "4242424242424242", expiry: "12/40", cvc: "123" },
    maxRedirects: 0,
  });
  expect(carded.status()).toBe(303);
  const back = new URL(carded.headers().location!);
  const feedback = await page.request.get(`/api/sandbox/feedback${back.search}`, { headers });
  const { order } = (await feedback.json()) as { order: { number: string } };
  const number = order.number;

  // The admin finds it by its number.
  await signIn(page, ADMIN);
  await page.goto("/admin/orders");
  await page.getByRole("searchbox", { name: "Search orders" }).fill(number.toLowerCase());
  await page.getByRole("button", { name: "Filter" }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get("search")).toBe(number.toLowerCase());
  const table = page.getByRole("region", { name: "All Orders" }).getByRole("table");
  const opener = table.getByRole("button", { name: new RegExp(number) });
  await expect(opener).toHaveCount(1);
  const orderName = /(Bulk order|Order) #\d+/.exec((await opener.textContent()) ?? "")![0];
  const status = table.getByRole("combobox", { name: `Status of ${orderName}` });

  // The row links the buyer's customer page and the receipt.
  await opener.click();
  await expect(table.getByRole("link", { name: "Test Shopper" })).toHaveAttribute(
    "href",
    /^\/admin\/customers\/\d+$/,
  );
  await expect(table.getByRole("button", { name: `Receipt ${number}` })).toBeVisible();

  // Cancelling the dialog changes nothing.
  await status.selectOption("preparing");
  const asked = page.getByRole("alertdialog", { name: `Move ${orderName} to Preparing?` });
  await asked.getByRole("button", { name: "Cancel" }).click();
  await expect(asked).toBeHidden();
  await expect(status).toHaveValue("finished");

  // Shipping asks for the tracking number and carrier.
  await status.selectOption("onDelivery");
  const shipping = page.getByRole("alertdialog", { name: `Move ${orderName} to On delivery?` });
  await shipping.getByLabel("Tracking number").fill("1Z999AA10123456784");
  await shipping.getByLabel("Carrier").fill("UPS");
  await expectNoSeriousAxeViolations(page);
  await shipping.getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText(`${orderName} is now On delivery`)).toBeVisible();
  await expect(status).toHaveValue("onDelivery");

  // The shopper's e-mail names the parcel and links the carrier and the order page.
  await expect
    .poll(
      async () =>
        (await mailTo(shopper.email)).map(readableMail).find((mail) => mail.includes("is on its way")) ?? "",
    )
    .toContain("Tracking number: 1Z999AA10123456784");
  const [mail] = (await mailTo(shopper.email))
    .map(readableMail)
    .filter((text) => text.includes("is on its way"));
  expect(mail).toContain("Carrier: UPS");
  expect(mail).toContain("https://www.ups.com/track?tracknum=1Z999AA10123456784");
  expect(mail).toContain(`${baseURL}/purchases/${number}`);

  // And the order page shows it, with the history.
  const shopperPage = await (await browser.newContext()).newPage();
  await signIn(shopperPage, shopper);
  await shopperPage.goto(`/purchases/${number}`);
  await expect(shopperPage.getByText("Tracking number 1Z999AA10123456784 (UPS)").first()).toBeVisible();
  await expect(shopperPage.getByRole("link", { name: /Track your parcel/ })).toHaveAttribute(
    "href",
    "https://www.ups.com/track?tracknum=1Z999AA10123456784",
  );
  const history = shopperPage.getByRole("list", { name: "Status history of Shipment" });
  await expect(history.getByRole("listitem")).toHaveCount(2);
  await expect(history.getByRole("listitem").last()).toContainText("On its way");
  await expect(shopperPage.getByText("On its way").first()).toBeVisible();
  await shopperPage.context().close();
});

import { readFile } from "node:fs/promises";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { APIRequestContext } from "@playwright/test";
import {
  expect,
  expectNoSeriousAxeViolationsInBothThemes,
  mailTo,
  newShopper,
  payByCard,
  signIn,
  test,
  tokenOf,
  type Page,
  readableMail,
} from "./fixtures";

/**
 * After the purchase: the order page reached from the result page, from the
 * Purchases card and from the confirmation e-mail's link; its PDF receipt; "buy again"; axe in both themes
 * and at phone width. Each journey buys as a shopper of its own.
 */

/** Demo products with stock to spare. */
const WEBCAM = { id: 20, title: /^Webcam HD 1080p/, name: "Webcam HD 1080p" };
const NEXIGO = { id: 12, title: /^NexiGo N60/, name: "NexiGo N60" };

/**
 * A new shopper with an address buys two units of the webcam and one NexiGo as Buy now lines, and pays on
 * the sandbox's card page: the page ends on the result page. Returns the shopper and the purchase's number.
 */
async function buyAndPay(page: Page) {
  const shopper = await newShopper(page.request, { address: true });
  const token = await tokenOf(page.request, shopper);
  await pending(page.request, token, WEBCAM.id, 2);
  await pending(page.request, token, NEXIGO.id, 1);
  await signIn(page, shopper);
  // Paid from the store's own address, as the checkout page does.
  const pay = await page.request.post("/api/sandbox/pay", {
    headers: { authorization: `Bearer ${token}` },
    data: { baseURL: baseOrigin(page) },
  });
  expect(pay.status(), await pay.text()).toBe(200);
  await page.goto((await pay.json()).init_point as string);
  await payByCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { name: "Purchase successful" })).toBeVisible();
  const number = (await page.getByText(/^V-\d{6}$/).textContent())!;
  return { shopper, token, number };
}

/**
 * The same purchase paid through the API, as the card page's form and the return page do (for journeys that
 * start on the order page): the shopper is signed in for the page's next load. Returns the purchase's number.
 */
async function paidByApi(page: Page) {
  const shopper = await newShopper(page.request, { address: true });
  const token = await tokenOf(page.request, shopper);
  const headers = { authorization: `Bearer ${token}` };
  await pending(page.request, token, WEBCAM.id, 2);
  await pending(page.request, token, NEXIGO.id, 1);
  const pay = await page.request.post("/api/sandbox/pay", { headers, data: { baseURL: baseOrigin(page) } });
  expect(pay.status(), await pay.text()).toBe(200);
  const carded = await page.request.post(new URL((await pay.json()).init_point as string).pathname, {
    form: { number: "4242424242424242", expiry: "12/40", cvc: "123" },
    maxRedirects: 0,
  });
  expect(carded.status()).toBe(303);
  const feedback = await page.request.get(
    `/api/sandbox/feedback${new URL(carded.headers().location!).search}`,
    { headers },
  );
  const { order } = (await feedback.json()) as { order: { number: string } };
  expect(order.number).toMatch(/^V-\d{6}$/);
  await signIn(page, shopper);
  return { shopper, number: order.number };
}

const baseOrigin = (page: Page) => new URL(test.info().project.use.baseURL ?? page.url()).origin;

async function pending(request: APIRequestContext, token: string, productId: number, amount: number) {
  const reply = await request.post("/api/order", {
    headers: { authorization: `Bearer ${token}` },
    data: { status: "pending", productId, amount },
  });
  expect(reply.status(), await reply.text()).toBe(201);
}

async function pdfText(path: string): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(await readFile(path)), verbosity: 0 }).promise;
  const texts: string[] = [];
  for (let index = 1; index <= document.numPages; index++) {
    const content = await (await document.getPage(index)).getTextContent();
    texts.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await document.destroy();
  return texts.join("\n");
}

test("the order page from the result page, the Purchases card and the e-mail: lines, money, address, payment, history", async ({
  page,
}) => {
  const { shopper, number } = await buyAndPay(page);

  // The result page links the order.
  await page.getByRole("link", { name: `Order ${number}` }).click();
  await expect(page).toHaveURL(new RegExp(`/purchases/${number}$`));
  await expect(page.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();
  await expect(page.getByText(/^Placed on \w+ \d{1,2}, \d{4}/)).toBeVisible();
  const lines = page.getByRole("region", { name: "Products" });
  await expect(lines.getByRole("link", { name: WEBCAM.title })).toHaveAttribute(
    "href",
    `/product/${WEBCAM.id}`,
  );
  await expect(lines.getByText(/^2 units × \$\d+\.\d{2}$/)).toBeVisible();
  await expect(lines.getByText(/^1 unit × \$\d+\.\d{2}$/)).toBeVisible();
  await expect(lines.getByText(/^Total$/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Shipping address" })).toContainText("Rua Augusta 100");
  await expect(page.getByRole("region", { name: "Payment" })).toContainText("Card (Voltio sandbox)");
  const history = page.getByRole("list", { name: /^Status history of Shipment 1 of 2$/ });
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expect(history.getByRole("listitem").first()).toContainText("Paid");

  // The Purchases card: number, date, total, status, and a link to the same page.
  await page.goto("/purchases");
  const card = page.getByRole("region", { name: `Order ${number}` });
  await expect(card.getByText(/^Total \$\d+\.\d{2}$/)).toBeVisible();
  await expect(card.getByText("Paid").first()).toBeVisible();
  await card.getByRole("link", { name: `Order ${number}`, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();

  // The confirmation e-mail links it too.
  const link = `${baseOrigin(page)}/purchases/${number}`;
  await expect
    .poll(async () =>
      (await mailTo(shopper.email)).some((mail) => readableMail(mail).includes(`See your order: ${link}`)),
    )
    .toBe(true);
  await page.goto("/");
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();

  // Nobody else's: another shopper gets the store's not-found page.
  const other = await newShopper(page.request);
  const stranger = await page.context().browser()!.newPage();
  await signIn(stranger, other);
  await stranger.goto(`/purchases/${number}`);
  await expect(stranger.getByRole("heading", { name: "Order not found" })).toBeVisible();
  await stranger.close();
});

test("download the receipt: a PDF with the number, the products and the total", async ({ page }) => {
  const { number } = await paidByApi(page);
  await page.goto(`/purchases/${number}`);
  const total = (await page.getByTestId("order-total").textContent())!.replace(/^\$/, "");
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download receipt" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`receipt-${number}.pdf`);
  const path = (await download.path())!;
  expect((await readFile(path)).subarray(0, 5).toString()).toBe("%PDF-");
  const text = await pdfText(path);
  expect(text).toContain(number);
  expect(text).toContain(WEBCAM.name);
  expect(text).toContain(NEXIGO.name);
  expect(text).toContain(total);
});

test("buy again puts the products in the cart and links to it", async ({ page }) => {
  const { number } = await paidByApi(page);
  await page.goto(`/purchases/${number}`);
  await page.getByRole("button", { name: "Buy again" }).click();
  await expect(page.getByText("3 units added to your cart.")).toBeVisible();
  await page.getByRole("link", { name: "Go to the cart" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("link", { name: WEBCAM.title }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: NEXIGO.title }).first()).toBeVisible();
});

for (const width of [1280, 360]) {
  test(`the order page has no serious axe violation in both themes at ${width} px`, async ({ page }) => {
    const { number } = await paidByApi(page);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/purchases/${number}`);
    await expect(page.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();
    await expectNoSeriousAxeViolationsInBothThemes(page);
    // Nothing runs off the side of a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test("the purchases, with an order's card, have no serious axe violation in both themes", async ({
  page,
}) => {
  const { number } = await paidByApi(page);
  await page.goto("/purchases");
  await expect(page.getByRole("region", { name: `Order ${number}` })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page);
});

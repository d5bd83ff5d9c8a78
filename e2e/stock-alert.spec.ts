import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import {
  ADMIN,
  expect,
  expectNoSeriousAxeViolations,
  expectNoSeriousAxeViolationsInBothThemes,
  mailTo,
  newShopper,
  signIn,
  test,
  tokenOf,
  waitForHydration,
  type Page,
  readableMail,
} from "./fixtures";

/**
 * Back in stock: a signed-in shopper asks on a sold-out product, the admin restocks it,
 * and the shopper's e-mail links to it. Each journey sells out a product of its own (made through the admin
 * API, in a category no other journey counts), so the demo's products stay as the other journeys expect.
 */

async function adminHeaders(request: APIRequestContext) {
  return { authorization: `Bearer ${await tokenOf(request, ADMIN)}` };
}

const productBody = (title: string, stock: number) => ({
  title,
  name: "Slate 11",
  price: "249.99",
  shippingCost: 0,
  description: "A light 11-inch tablet. Ten hours of battery. Made for the back-in-stock journey.",
  stock,
  categories: ["Tablets"],
});

/** A new sold-out product, made by the admin: its id and title. */
async function soldOutProduct(request: APIRequestContext) {
  const title = `Slate 11 tablet ${randomBytes(3).toString("hex")}`;
  const reply = await request.post("/api/products", {
    headers: await adminHeaders(request),
    data: productBody(title, 0),
  });
  expect(reply.status(), await reply.text()).toBe(201);
  return { id: (await reply.json()).id as number, title };
}

const askButton = (page: Page) => page.getByRole("button", { name: "Tell me when it's back in stock" });
const cancelButton = (page: Page) => page.getByRole("button", { name: "Cancel", exact: true });
const alertStatus = (page: Page) => page.getByRole("status").filter({ hasText: /e-mail you/ });

test("a shopper asks on a sold-out product; the admin's restock e-mails them a link to it, once", async ({
  page,
  browser,
  baseURL,
}) => {
  const product = await soldOutProduct(page.request);
  const shopper = await newShopper(page.request);
  await signIn(page, shopper);
  await page.goto(`/product/${product.id}`);
  await expect(page.getByText("No stock available")).toBeVisible();
  await expect(alertStatus(page)).toHaveText("We can e-mail you once when it's back.");
  await askButton(page).click();
  await expect(alertStatus(page)).toHaveText("We'll e-mail you when it's back");
  // The same button now cancels, and keeps the keyboard focus.
  await expect(cancelButton(page)).toBeFocused();
  await page.reload();
  await expect(alertStatus(page)).toHaveText("We'll e-mail you when it's back");
  await expectNoSeriousAxeViolations(page);

  // Another shopper asks and changes their mind: they get nothing.
  const otherContext = await browser.newContext({ baseURL });
  const other = await otherContext.newPage();
  const changedMind = await newShopper(page.request);
  await signIn(other, changedMind);
  await other.goto(`/product/${product.id}`);
  await waitForHydration(other);
  await askButton(other).click();
  await cancelButton(other).click();
  await expect(askButton(other)).toBeVisible();
  await otherContext.close();

  // The owner puts 3 units on sale through the back office's API.
  const restocked = await page.request.put(`/api/products/${product.id}`, {
    headers: await adminHeaders(page.request),
    data: productBody(product.title, 3),
  });
  expect(restocked.status(), await restocked.text()).toBe(200);

  await expect.poll(async () => (await mailTo(shopper.email)).length, { timeout: 20_000 }).toBe(1);
  const [mail] = await mailTo(shopper.email);
  const body = readableMail(mail!);
  const origin = new URL(page.url()).origin;
  expect(body).toContain(`${origin}/product/${product.id}`);
  expect(body).toContain(product.title);
  expect(body).toContain("is back in stock");
  expect(await mailTo(changedMind.email)).toEqual([]);

  // The e-mail's link opens the product, now for sale; the request has ended.
  await page.goto(`${origin}/product/${product.id}`);
  await expect(page.getByText("Stock: 3")).toBeVisible();
  await expect(page.getByRole("button", { name: "Buy now" })).toBeEnabled();
  await expect(askButton(page)).toHaveCount(0);

  // Retired again, so no other journey meets it in the listings.
  const retired = await page.request.delete(`/api/products/${product.id}`, {
    headers: await adminHeaders(page.request),
  });
  expect(retired.status()).toBe(200);
});

test("the back-in-stock control passes axe in both themes at phone width; a guest gets a link to log in", async ({
  page,
  browser,
  baseURL,
}) => {
  const product = await soldOutProduct(page.request);
  await signIn(page, await newShopper(page.request));
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`/product/${product.id}`);
  await askButton(page).click();
  await expect(alertStatus(page)).toHaveText("We'll e-mail you when it's back");
  await expectNoSeriousAxeViolationsInBothThemes(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);

  const context = await browser.newContext({ baseURL });
  const guest = await context.newPage();
  await guest.goto(`/product/${product.id}`);
  await waitForHydration(guest);
  const logIn = guest.getByRole("link", { name: "Log in to be told when it's back in stock" });
  await expect(logIn).toBeVisible();
  await expect(askButton(guest)).toHaveCount(0);
  await expectNoSeriousAxeViolationsInBothThemes(guest);
  await logIn.click();
  await expect(guest).toHaveURL(/\/login$/);
  await context.close();
});

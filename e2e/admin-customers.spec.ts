import type { APIRequestContext } from "@playwright/test";
import type { AdminPaymentPage } from "@voltio/domain/payments";
import {
  ADMIN,
  dollars,
  expect,
  expectNoSeriousAxeViolations,
  expectNoSeriousAxeViolationsInBothThemes,
  newProduct,
  newShopper,
  sendAgainOnConflict,
  signIn,
  test,
  tokenOf,
  type Page,
} from "./fixtures";

/**
 * The back office's customer page. An admin opens a shopper from the users screen and
 * sees their profile, address, purchases with totals and statuses (one of them refunded in part), the
 * lifetime spend that leaves the refund out, and their review. Axe in both themes and at phone width.
 * (The confirmations before a role change and a newsletter to everyone: admin-users and admin-newsletter.)
 */

type Headers = { authorization: string };

/** A 'Buy now' paid with the sandbox's approving card, through the API as the web app calls it. */
async function buyAndPay(request: APIRequestContext, headers: Headers, productId: number, amount: number) {
  const line = await request.post("/api/order", { headers, data: { status: "pending", productId, amount } });
  expect(line.status(), await line.text()).toBe(201);
  const started = await request.post("/api/sandbox/pay", {
    headers,
    data: { baseURL: new URL("/", line.url()).origin },
  });
  expect(started.status(), await started.text()).toBe(200);
  const { init_point } = (await started.json()) as { init_point: string };
  const carded = await request.post(new URL(init_point).pathname, {
    form: { number: "4242424242424242", expiry: "12/40", cvc: "123" },
    maxRedirects: 0,
  });
  expect(carded.status()).toBe(303);
  const returned = new URL(carded.headers().location!);
  const feedback = await request.get(`/api/sandbox/feedback${returned.search}`, { headers });
  expect(((await feedback.json()) as { Status: string }).Status).toBe("approved");
}

const bearer = async (request: APIRequestContext, who: { email: string; password: string }) => ({
  authorization: `Bearer ${await tokenOf(request, who)}`,
});

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

test("open a customer from the users screen: profile, purchases with totals and statuses, lifetime spend without the refund, reviews", async ({
  page,
}) => {
  // Two products of this test's own: the demo's stock and reviews stay as the storefront's journeys read them.
  const [lamp, drive] = [await newProduct(page.request), await newProduct(page.request)];
  const shopper = await newShopper(page.request, { address: true });
  const headers = await bearer(page.request, shopper);
  const { id: userId } = (await (await page.request.get("/api/user", { headers })).json()) as { id: number };
  await buyAndPay(page.request, headers, lamp.id, 2);
  await buyAndPay(page.request, headers, drive.id, 1);
  const review = await page.request.post("/api/comment", {
    headers,
    data: { productId: lamp.id, rating: 4, content: "Bright and quiet." },
  });
  expect(review.status(), await review.text()).toBe(201);

  // The owner gives back US$ 5.00 of the first purchase.
  const admin = await bearer(page.request, ADMIN);
  const list = (await (
    await page.request.get(`/api/payment/admin?userId=${userId}`, { headers: admin })
  ).json()) as AdminPaymentPage;
  expect(list.payments).toHaveLength(2);
  const [second, first] = list.payments; // newest first
  const refund = await sendAgainOnConflict(() =>
    page.request.post(`/api/payment/admin/${first!.id}/refund`, {
      headers: admin,
      data: { amount: "5.00", reason: "Scratched box" },
    }),
  );
  expect(refund.status(), await refund.text()).toBe(200);
  const keptCents = Math.round((first!.amount + second!.amount) * 100) - 500;

  await signIn(page, ADMIN);
  await page.goto(`/admin/users?search=${encodeURIComponent(shopper.email)}`);
  await page
    .getByRole("region", { name: "Users" })
    .getByRole("link", { name: "Open the customer page of Test Shopper" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/customers/${userId}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Test Shopper" })).toBeVisible();
  await expect(page).toHaveTitle("Test Shopper | Voltio");

  const profile = region(page, "Profile");
  await expect(profile).toContainText(shopper.email);
  await expect(profile).toContainText("E-mail and password");
  await expect(profile).toContainText("Not subscribed");
  await expect(region(page, "Addresses")).toContainText("Rua Augusta 100");
  await expect(region(page, "Addresses")).toContainText("1100-053 Lisbon");

  const figures = region(page, "Summary");
  await expect(figures.getByRole("definition").first()).toHaveText(`US$ ${dollars(keptCents)}`);
  await expect(figures).toContainText("Lifetime spend");
  await expect(figures).toContainText("Orders");

  const table = region(page, "Purchases").getByRole("table");
  const rows = table.getByRole("row");
  await expect(rows).toHaveCount(3);
  for (const column of ["Number", "Date", "Total", "Status"])
    await expect(table.getByRole("columnheader", { name: column })).toBeVisible();
  const numbers = table.getByRole("link", { name: /^V-\d{6}$/ });
  await expect(numbers).toHaveCount(2);
  const newest = rows.nth(1);
  await expect(newest).toContainText(`US$ ${dollars(Math.round(second!.amount * 100))}`);
  await expect(newest).toContainText("1 unit");
  await expect(newest).toContainText("Finished");
  const oldest = rows.nth(2);
  await expect(oldest).toContainText(`US$ ${dollars(Math.round(first!.amount * 100))}`);
  await expect(oldest).toContainText("2 units");
  await expect(oldest).toContainText("US$ 5.00 refunded");
  await expect(oldest.getByRole("link")).toHaveAttribute("href", /^\/purchases\/V-\d{6}$/);
  await expect(region(page, "Purchases").getByRole("link", { name: "All their orders" })).toHaveAttribute(
    "href",
    `/admin/orders?userId=${userId}`,
  );

  const reviews = region(page, "Reviews");
  const written = reviews.getByRole("article", { name: `Review of ${lamp.title}` });
  await expect(written).toContainText("Bright and quiet.");
  await expect(written.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // Back to the users screen by its link.
  await page.getByRole("link", { name: "Users", exact: true }).first().click();
  await expect(page).toHaveURL(/\/admin\/users/);
});

test("an unknown customer says so", async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto("/admin/customers/2000000000");
  await expect(page.getByRole("heading", { level: 1, name: "There is no user with this id." })).toBeVisible();
});

for (const width of [1280, 360]) {
  test(`the customer page passes axe in both themes at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, ADMIN);
    // The demo shopper (user 2) has purchases and an address.
    await page.goto("/admin/customers/2");
    await expect(region(page, "Purchases").getByRole("table")).toBeVisible();
    await expectNoSeriousAxeViolationsInBothThemes(page);
    // Nothing spills sideways at phone width: the page itself never scrolls horizontally.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

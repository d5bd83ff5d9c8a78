import type { APIRequestContext } from "@playwright/test";
import { ADMIN, expect, newShopper, payByCard, signIn, test, tokenOf } from "./fixtures";

/**
 * Money that adds up, as shoppers really pay — a double-clicked Pay, a tab closed right
 * after paying, and an old tab whose checkout a newer one replaced.
 */

const WEBCAM = { id: 20 };
const NEXIGO = { id: 12 };

/** 'Buy now' through the API: a pending line of one unit. */
async function buyNow(request: APIRequestContext, token: string, productId: number) {
  const reply = await request.post("/api/order", {
    headers: { authorization: `Bearer ${token}` },
    data: { status: "pending", productId, amount: 1 },
  });
  expect(reply.status(), await reply.text()).toBe(201);
}

test("a double-clicked Pay charges once, and a tab closed right after paying still finishes the order", async ({
  page,
  browser,
}) => {
  const shopper = await newShopper(page.request, { address: true });
  const token = await tokenOf(page.request, shopper);
  await buyNow(page.request, token, WEBCAM.id);
  await signIn(page, shopper);
  await page.goto("/purchase");
  await page.getByRole("button", { name: /^Pay \$/ }).dblclick();

  // The return page never loads: the tab is closed as soon as the card is accepted. The card page's answer,
  // a redirect to the store's return page, is dropped (a route never sees the request a redirect leads to, so
  // aborting that one let the return page load and settle the payment itself), and the tab is closed after.
  // The card page's status comes out of the handler: an expectation failing in there would end the test on its
  // timeout instead of on the expectation.
  let cardAnswered!: (status: number) => void;
  const cardStatus = new Promise<number>((resolve) => (cardAnswered = resolve));
  await page.route("**/pay/sandbox/**", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    const answer = await route.fetch({ maxRedirects: 0 });
    await route.abort();
    cardAnswered(answer.status());
  });
  await payByCard(page, "4242 4242 4242 4242");
  expect(await cardStatus).toBe(303);
  await page.close();

  // The sandbox tells the store by its webhook, as a real provider does: the purchase is paid.
  const later = await (await browser.newContext()).newPage();
  await signIn(later, shopper);
  await expect(async () => {
    await later.goto("/purchases");
    await expect(later.getByText("Paid").first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  // One payment, for one checkout.
  const admin = await tokenOf(later.request, ADMIN);
  const me = (await (
    await later.request.get("/api/user", { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { id: number };
  const listed = (await (
    await later.request.get(`/api/payment/admin?userId=${me.id}`, {
      headers: { authorization: `Bearer ${admin}` },
    })
  ).json()) as { total: number; payments: { status: string; attention: boolean }[] };
  expect(listed.total).toBe(1);
  expect(listed.payments[0]).toMatchObject({ status: "approved", attention: false });
});

test("an old tab can't pay a checkout that a newer one replaced", async ({ page, context }) => {
  const shopper = await newShopper(page.request, { address: true });
  const token = await tokenOf(page.request, shopper);
  await buyNow(page.request, token, WEBCAM.id);
  await signIn(page, shopper);
  await page.goto("/purchase");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/pay\/sandbox\//);

  // Another tab: one more product, Pay again — a new checkout replaces the first.
  await buyNow(page.request, token, NEXIGO.id);
  const second = await context.newPage();
  await second.goto("/purchase");
  await second.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(second).toHaveURL(/\/pay\/sandbox\//);

  // The first tab's card page refuses the card and leads back to the checkout.
  await payByCard(page, "4242 4242 4242 4242");
  await expect(
    page.getByText(/A newer payment, started in another tab or window, replaced this one/),
  ).toBeVisible();
  await page.getByRole("link", { name: "Back to the checkout" }).click();
  await expect(page).toHaveURL(/\/purchase$/);

  // The newer tab pays for both.
  await payByCard(second, "4242 4242 4242 4242");
  await expect(second.getByRole("heading", { name: "Purchase successful" })).toBeVisible();
});

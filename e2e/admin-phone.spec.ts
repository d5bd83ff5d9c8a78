import { axeViolations } from "./axe";
import {
  ADMIN,
  expect,
  expectNoSeriousAxeViolations,
  expectNoSeriousAxeViolationsInBothThemes,
  newProduct,
  payByCard,
  sendAgainOnConflict,
  signIn,
  switchTheme,
  test,
  tokenOf,
  type Page,
  shopperAtCheckout,
} from "./fixtures";

/**
 * In the back office: at phone width the menu folds under a button naming the
 * current screen (by keyboard too), the product form answers a negative amount with its own message, the
 * 'Cancelled' badge and the dashboard's sales line read at AA contrast.
 */

const PHONE = { width: 390, height: 844 };

/** axe's color-contrast rule (WCAG AA: 4.5:1 for text) on what the page shows now. */
async function expectContrast(page: Page) {
  const violations = await axeViolations(page, { rules: ["color-contrast"] });
  expect(violations.flatMap((violation) => violation.nodes.map((node) => node.target.join(" ")))).toEqual([]);
}

test("at 390 px the admin menu is one button naming the screen, usable by keyboard; axe in both themes", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(page, ADMIN);
  await page.goto("/admin");
  const menu = page.getByRole("navigation", { name: "Back office" });
  const toggle = menu.getByRole("button", { name: "Admin menu: Statistics" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(menu.getByRole("link")).toHaveCount(0);
  // The screen itself starts on the first screenful.
  const heading = page.getByRole("heading", { level: 1, name: "Statistics" });
  await expect(heading).toBeVisible();
  expect((await heading.boundingBox())!.y).toBeLessThan(PHONE.height / 2);
  await expectNoSeriousAxeViolationsInBothThemes(page);

  // Enter opens it; the current screen is marked; Tab walks the links; Escape folds it back.
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(menu.getByRole("link", { name: "Statistics" })).toHaveAttribute("aria-current", "page");
  // Open, in the dark theme the last audit left, then in the light one.
  await expectNoSeriousAxeViolationsInBothThemes(page);
  await page.keyboard.press("Tab");
  await expect(menu.getByRole("link", { name: "Statistics" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeFocused();

  // Choosing a screen goes there and folds the menu under that screen's name.
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(menu.getByRole("link", { name: "Manage products" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/products\?limit=8&offset=1$/);
  await expect(menu.getByRole("button", { name: "Admin menu: Manage products" })).toHaveAttribute(
    "aria-expanded",
    "false",
  );
  // A product's edit form belongs to the products.
  await page
    .getByRole("link", { name: /^Edit / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/admin\/edit\/\d+$/);
  await expect(menu.getByRole("button", { name: "Admin menu: Manage products" })).toBeVisible();
});

test("on a wide screen the admin menu stays a list, with no button", async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto("/admin/orders");
  const menu = page.getByRole("navigation", { name: "Back office" });
  await expect(menu.getByRole("link", { name: "Manage orders" })).toHaveAttribute("aria-current", "page");
  // SPEC's links, the payments, and issue 41's brands & attributes.
  await expect(menu.getByRole("link")).toHaveCount(10);
  await expect(menu.getByRole("button", { name: /^Admin menu/ })).toBeHidden();
});

test('the Spanish back office says lang="es" and names its menu in Spanish', async ({ page, baseURL }) => {
  await page.setViewportSize(PHONE);
  await page.context().addCookies([{ name: "lang", value: "es", url: baseURL! }]);
  await page.addInitScript(() => localStorage.setItem("lang", "es"));
  await signIn(page, ADMIN);
  await page.goto("/admin/discounts");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(
    page
      .getByRole("navigation", { name: "Administración" })
      .getByRole("button", { name: "Menú de administración: Gestionar ofertas" }),
  ).toBeVisible();
});

test("the product form answers a negative price or shipping cost with its own message", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, ADMIN);
  await page.goto("/admin/create/Product");
  const form = page.getByRole("region", { name: "Product details" });
  await form.getByLabel("Title").fill("Negative dock");
  await form.getByLabel("Name").fill("A dock with a negative price");
  await form.getByLabel("Price (US$)").fill("-5");
  await form.getByLabel("Shipping cost (US$)").fill("2");
  await form.getByLabel("Stock").fill("3");
  await form.getByLabel("Description").fill("Never saved");
  await form.getByLabel("New category").fill("Docks");
  await form.getByRole("button", { name: "Add" }).first().click();
  await form.getByRole("button", { name: "Create product" }).click();
  const denied = page.getByRole("dialog", { name: "Denied" });
  await expect(denied.getByText("The value cannot be negative")).toBeVisible();
  await expect(denied.getByText("Please, fill in all the fields")).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  await denied.getByRole("button", { name: "Close" }).first().click();
  await expect(form.getByText("The value cannot be negative")).toHaveCount(1);
  await expect(form.getByLabel("Price (US$)")).toHaveAttribute("aria-invalid", "true");

  // Both wrongs at once: each said once.
  await form.getByLabel("Name").fill("");
  await form.getByLabel("Shipping cost (US$)").fill("-1");
  await form.getByRole("button", { name: "Create product" }).click();
  await expect(denied).toContainText("Please, fill in all the fields The value cannot be negative");
  await denied.getByRole("button", { name: "Close" }).first().click();

  // Editing: a negative shipping cost is denied for that, not 'Some fields are missing'.
  await page.goto("/admin/edit/12");
  await page.getByLabel("Shipping cost (US$)").fill("-3");
  await page.getByRole("button", { name: "Save Changes" }).click();
  const editDenied = page.getByRole("dialog", { name: "Denied" });
  await expect(editDenied.getByText("The value cannot be negative")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Some fields are missing. Check again" })).toHaveCount(0);
});

test("the 'Cancelled' badge on the shopper's purchases reads at AA contrast in both themes", async ({
  page,
  browser,
  baseURL,
}) => {
  // A shopper of this test's own pays for a hard drive of this test's own; the admin cancels it.
  const drive = await newProduct(page.request, { name: "E2E hard drive" });
  const { shopperPage, shopperContext, orderId } = await shopperAtCheckout(page, browser, {
    baseURL,
    productId: drive.id,
    viewport: PHONE,
  });
  await shopperPage.getByRole("button", { name: /^Pay \$/ }).click();
  await payByCard(shopperPage, "4242 4242 4242 4242");
  await expect(shopperPage).toHaveURL(/\/purchase\/success\?/);
  const headers = { authorization: `Bearer ${await tokenOf(page.request, ADMIN)}` };
  const cancelled = await sendAgainOnConflict(() =>
    page.request.put(`/api/order/admin/${orderId}`, { headers, data: { status: "cancelled" } }),
  );
  expect(cancelled.status(), await cancelled.text()).toBe(200);

  await shopperPage.goto("/purchases");
  await expect(shopperPage.getByRole("main").getByText("Cancelled", { exact: true }).first()).toBeVisible();
  await expectContrast(shopperPage);
  await expectNoSeriousAxeViolations(shopperPage);
  // The dark theme, switched in the same page.
  await switchTheme(shopperPage, "dark");
  await expectContrast(shopperPage);
  await expectNoSeriousAxeViolations(shopperPage);
  await shopperContext.close();
});

/** WCAG's contrast ratio of two computed `rgb(r, g, b)` colours. */
function contrast(first: string, second: string) {
  const luminance = (color: string) => {
    const [r, g, b] = color
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map((part) => {
        const value = Number(part) / 255;
        return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

test("in the dark theme the dashboard's sales line and its legend stand out from the card", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.addInitScript(() => localStorage.setItem("theme", "dark"));
  await signIn(page, ADMIN);
  await page.goto("/admin");
  const sales = page.getByRole("region", { name: "Sales", exact: true });
  const line = sales.locator(".recharts-line-curve");
  await expect(line).toBeAttached();
  const stroke = await line.evaluate((element) => getComputedStyle(element).stroke);
  const card = await sales.evaluate((element) => getComputedStyle(element).backgroundColor);
  // A graphic's part: 3:1 (WCAG 1.4.11). The SPEC's indigo was 2.7:1 on the dark card.
  expect(contrast(stroke, card)).toBeGreaterThanOrEqual(3);
  await expect(sales.getByText("ventas")).toBeVisible();
  const legend = await sales.getByText("ventas").evaluate((element) => getComputedStyle(element).color);
  expect(contrast(legend, card)).toBeGreaterThanOrEqual(4.5);
  await expectContrast(page);
});

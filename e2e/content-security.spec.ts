import { createHash, createHmac } from "node:crypto";
import {
  ADMIN,
  e2eJwtSecret,
  expect,
  newShopper,
  payByCard,
  signIn,
  switchTheme,
  test,
  tokenOf,
  type Page,
} from "./fixtures";

/**
 * The pages' Content-Security-Policy allows no inline style but those carrying the reply's nonce, and their
 * Permissions-Policy refuses what the store never uses. In the real Chromium every kind of page renders,
 * hydrates and reacts (carousels move, a toast shows, a dialog locks the page's scroll, charts draw) with no
 * violation reported, and a style the page didn't write is refused and reported.
 */

interface Violation {
  page: string;
  directive: string;
  blocked: string;
  sample: string;
}

/** Every CSP violation the pages report, from their own event, and what Chromium says of the headers. */
async function watchViolations(page: Page) {
  const violations: Violation[] = [];
  const complaints: string[] = [];
  await page.exposeFunction("reportViolation", (violation: Violation) => violations.push(violation));
  await page.addInitScript(() => {
    window.addEventListener(
      "securitypolicyviolation",
      (event) =>
        void (window as unknown as { reportViolation(violation: object): Promise<void> }).reportViolation({
          page: event.documentURI,
          directive: event.effectiveDirective,
          blocked: event.blockedURI,
          sample: event.sample,
        }),
      true,
    );
  });
  // A policy Chromium can't read (an unknown feature, a bad directive) is only said on the console.
  page.on("console", (message) => {
    if (/Content.Security.Policy|Permissions.Policy/i.test(message.text())) complaints.push(message.text());
  });
  return {
    violations,
    complaints,
    /** After a last frame, so that what the page did just before is reported. */
    async expectNone() {
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      expect(violations).toEqual([]);
      expect(complaints).toEqual([]);
    },
  };
}

/** A page's headers as the browser got them: the policies with no inline styles, the features refused. */
function expectPagePolicies(headers: Record<string, string>) {
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toMatch(/(^|;)style-src /);
  expect(csp).not.toContain("unsafe-inline");
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(headers["permissions-policy"]).toContain("publickey-credentials-get=(self)");
}

/** Opens a page and waits for its heading: what the page draws at once is drawn. */
async function visit(page: Page, url: string, heading: string | RegExp) {
  const response = await page.goto(url);
  expectPagePolicies(response!.headers());
  await expect(page.getByRole("heading", { level: 1, name: heading }).first()).toBeVisible();
}

/** Every style element of the page carries the nonce the page was served with. */
async function expectStyleElementsNonced(page: Page) {
  const styles = await page.evaluate(() => {
    const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? "";
    return Array.from(document.querySelectorAll("style"), (style) => ({
      nonced: nonce !== "" && style.nonce === nonce,
      start: style.textContent?.slice(0, 60),
    }));
  });
  for (const style of styles)
    expect(style, "a style element without the page's nonce").toMatchObject({ nonced: true });
}

/** A link of the newsletter's, as the mail worker writes it: a token signed with the server's secret. */
function unsubscribeLink(email: string) {
  const key = createHash("sha256").update(`newsletter-unsubscribe:${e2eJwtSecret()}`).digest();
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = { sub: email, aud: "newsletter-unsubscribe", iss: "voltio", iat: now, exp: now + 3600 };
  const body = `${encode({ alg: "HS256" })}.${encode(claims)}`;
  const token = `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
  return `/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

test("the watch sees a style the page didn't write: refused and reported", async ({ page }) => {
  const watch = await watchViolations(page);
  await visit(page, "/", /./);
  await page.evaluate(() => document.body.setAttribute("style", "outline: 5px solid red"));
  await expect
    .poll(() => watch.violations.map((violation) => violation.directive))
    .toEqual(["style-src-attr"]);
  expect(await page.evaluate(() => getComputedStyle(document.body).outlineStyle)).toBe("none");
  const injected = await page.evaluate(() => {
    const style = document.createElement("style");
    style.textContent = "body { outline: 5px solid red; }";
    document.head.append(style);
    return getComputedStyle(document.body).outlineStyle;
  });
  expect(injected).toBe("none");
  await expect.poll(() => watch.violations.length).toBe(2);
  expect(watch.violations[1]).toMatchObject({ directive: "style-src-elem", blocked: "inline" });
});

test("a guest's pages: home, listing, product, login, not found and the newsletter's unsubscribe pages", async ({
  page,
}) => {
  const watch = await watchViolations(page);
  await visit(page, "/", /./);
  // The banner and the carousels move by a transform the page sets through the DOM, which the policy allows.
  const banner = page.getByRole("region", { name: "Current sales" });
  await banner.hover();
  await banner.getByRole("button", { name: "Next sale" }).click();
  await expect(banner.getByRole("button", { name: "Show sale 2" })).toHaveAttribute("aria-current", "true");
  const carousel = page
    .locator('[aria-roledescription="carousel"]')
    .filter({ has: page.getByRole("button", { name: "Next products" }) })
    .first();
  await carousel.getByRole("button", { name: "Next products" }).click();
  await expect(carousel.getByText(/^2 \/ \d+$/)).toBeVisible();
  expect(await carousel.locator("ul").evaluate((list) => getComputedStyle(list).transform)).not.toBe("none");

  await visit(page, "/products?offset=1", /./);
  await visit(page, "/product/12", /./);
  // The first toast loads the toaster, and its styles from the store's own stylesheet.
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByText("Added to the cart !")).toBeVisible();
  expect(
    await page.evaluate(() => getComputedStyle(document.querySelector("[data-sonner-toaster]")!).position),
  ).toBe("fixed");

  await visit(page, "/login", /./);
  const notFound = await page.goto("/no-such-page");
  expect(notFound!.status()).toBe(404);
  expectPagePolicies(notFound!.headers());
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // The page a newsletter's link opens, and the one its button leads to.
  await visit(page, unsubscribeLink(`reader.${Date.now()}@example.com`), "Newsletter");
  const unsubscribed = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  expectPagePolicies((await unsubscribed).headers());
  await expect(page.getByText("You have been unsubscribed.")).toBeVisible();
  await watch.expectNone();
});

test("a shopper's pages: profile with its addresses dialog, purchases, the card page and the payment's result", async ({
  page,
}) => {
  const watch = await watchViolations(page);
  const shopper = await newShopper(page.request, { address: true });
  const token = await tokenOf(page.request, shopper);
  const ordered = await page.request.post("/api/order", {
    headers: { authorization: `Bearer ${token}` },
    data: { status: "pending", productId: 1, amount: 1 },
  });
  expect(ordered.status(), await ordered.text()).toBe(201);
  await signIn(page, shopper);

  await visit(page, "/user", /./);
  // A dialog locks the page's scroll with a style element of its own: the page's nonce lets it apply.
  await page.getByRole("button", { name: /Adresses/ }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectStyleElementsNonced(page);
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe("hidden");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();

  await visit(page, "/purchases", /./);
  // The dark theme is classes too: the pages that follow load in it.
  await switchTheme(page, "dark");
  await visit(page, "/cart", /./);
  const pay = await page.request.post("/api/sandbox/pay", {
    headers: { authorization: `Bearer ${token}` },
    data: { baseURL: new URL(page.url()).origin },
  });
  expect(pay.status(), await pay.text()).toBe(200);
  const card = await page.goto(new URL((await pay.json()).init_point as string).pathname);
  expectPagePolicies(card!.headers());
  await payByCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { name: "Purchase successful" })).toBeVisible();
  await watch.expectNone();
});

test("the back office: the dashboard's charts and each section", async ({ page }) => {
  const watch = await watchViolations(page);
  await signIn(page, ADMIN);
  await visit(page, "/admin", /./);
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  for (const section of ["products", "orders", "users", "payments", "discounts", "newsletter", "audit"])
    await test.step(section, () => visit(page, `/admin/${section}`, /./));
  await visit(page, "/admin/create/Product", /./);
  await watch.expectNone();
});

test("the API's documentation page, whose swagger-ui keeps inline styles", async ({ page }) => {
  const watch = await watchViolations(page);
  const response = await page.goto("/api/docs");
  expect(response!.headers()["content-security-policy"]).toContain("style-src 'unsafe-inline' 'self'");
  expect(response!.headers()["permissions-policy"]).toContain("camera=()");
  await expect(page.getByRole("heading", { name: /Voltio API/ })).toBeVisible();
  await watch.expectNone();
});

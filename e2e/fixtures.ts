import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import {
  test as base,
  expect,
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from "@playwright/test";

import { axeViolations } from "./axe";

export { expect, type Page } from "@playwright/test";

/**
 * Storefront pages arrive rendered by the server and become interactive when the browser has hydrated them
 * (ADR 0006). A click in between would land on an inert button, as it would for a person on a slow phone:
 * journeys wait for <html data-hydrated> after every page load, as a person waits for the page to react.
 */
export async function waitForHydration(page: Page) {
  const serverRendered = await page.evaluate(() =>
    Boolean(document.getElementById("root")?.dataset.language),
  );
  if (serverRendered) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

export const test = base.extend({
  page: async ({ page }, use) => {
    for (const method of ["goto", "reload", "goBack", "goForward"] as const) {
      const navigate = page[method].bind(page) as (...args: unknown[]) => ReturnType<Page["goto"]>;
      Object.assign(page, {
        [method]: async (...args: unknown[]) => {
          const response = await navigate(...args);
          await waitForHydration(page);
          return response;
        },
      });
    }
    await use(page);
  },
});

/**
 * Scrolls to the end of the page, as a shopper reading on: a product page loads its reviews and related
 * products as they come near (apps/web/src/components/use-near-viewport.ts).
 */
export async function scrollToTheEnd(page: Page) {
  await page.mouse.wheel(0, 20_000);
}

/**
 * Clicks and checks the toast that follows. The SPEC's toasts last 2 seconds, so the watch starts before
 * the click: on a slow machine the click itself can take longer than the toast stays.
 */
export async function clickForToast(page: Page, target: Locator, text: string) {
  const shown = page.getByText(text).waitFor({ state: "visible" });
  await target.click();
  await shown;
}

/**
 * docs/product-rules.md §12: toasts close by themselves after 2 seconds. Checked on the page's clock, which the test
 * installs before loading the page: time stops for the click and then moves only when told to.
 */
export async function expectToastLasts2Seconds(
  page: Page,
  target: Locator,
  text: string,
  /** Checks to make while the toast is shown and the clock stands still. */
  whileShown?: () => Promise<void>,
) {
  // A little ahead of now (the page's clock follows the real one until paused): the jump also closes the
  // toasts of earlier clicks.
  await page.clock.pauseAt(Date.now() + 5_000);
  await target.click();
  const toast = page.getByText(text);
  // The toast shows after timers of its own (a first toast also waits for React to reveal the lazily loaded
  // toaster, up to 300 ms): move the stopped clock 50 ms at a time until it shows. It started closing at
  // most one step before it was seen, so 1,900 ms later it is still there.
  await expect(async () => {
    await page.clock.runFor(50);
    await expect(toast).toBeVisible({ timeout: 100 });
  }).toPass({ timeout: 15_000 });
  await whileShown?.();
  await page.clock.runFor(1900);
  await expect(toast).toBeVisible();
  // Past 2 seconds, plus the 200 ms the toast takes to leave.
  await page.clock.runFor(400);
  await expect(toast).toBeHidden();
  await page.clock.resume();
}

/** A shopper of this test's own, so journeys that change an account never share one. */
export async function newShopper(
  request: APIRequestContext,
  { address = false }: { address?: boolean } = {},
): Promise<{ email: string; password: string; firstName: string; lastName: string }> {
  const shopper = {
    firstName: "Test",
    lastName: "Shopper",
    email: `shopper.${Date.now()}.${randomBytes(4).toString("hex")}@voltio.test`,
    password: "Shopper-test-1",
  };
  const created = await request.post("/api/user", { data: shopper });
  expect(created.status(), await created.text()).toBe(201);
  if (address) {
    const { accessToken } = await logInByApi(request, shopper);
    const added = await request.post("/api/user/direction", {
      headers: { authorization: `Bearer ${accessToken}` },
      data: { city: "Lisbon", street: "Rua Augusta", streetNumber: "100", postalCode: "1100-053" },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
  return shopper;
}

async function logInByApi(
  request: APIRequestContext,
  { email, password }: { email: string; password: string },
) {
  const reply = await request.post("/api/user/login", { data: { email, password } });
  expect(reply.ok(), await reply.text()).toBe(true);
  return (await reply.json()) as { accessToken: string; refreshToken: string };
}

/** Signed in without the login form: the tokens are in place before the first page loads. */
export async function signIn(page: Page, credentials: { email: string; password: string }) {
  const { accessToken, refreshToken } = await logInByApi(page.request, credentials);
  await page.addInitScript(
    ([access, refresh]) => {
      localStorage.setItem("access", access!);
      localStorage.setItem("refresh", refresh!);
    },
    [accessToken, refreshToken],
  );
}

/**
 * A new shopper with an address and one `productId` in the cart, signed in at /purchase in a browser of their
 * own (the test's page stays free for the admin). Their ids come back, and the context to close at the end.
 */
export async function shopperAtCheckout(
  page: Page,
  browser: Browser,
  {
    baseURL,
    productId,
    viewport,
  }: { baseURL?: string; productId: number; viewport?: { width: number; height: number } },
): Promise<{
  shopper: { email: string; password: string };
  shopperPage: Page;
  shopperContext: BrowserContext;
  userId: number;
  orderId: number;
}> {
  const shopper = await newShopper(page.request, { address: true });
  const headers = { authorization: `Bearer ${await tokenOf(page.request, shopper)}` };
  const { id: userId } = (await (await page.request.get("/api/user", { headers })).json()) as { id: number };
  const bought = await page.request.post("/api/order", {
    headers,
    data: { status: "pending", productId, amount: 1 },
  });
  expect(bought.status(), await bought.text()).toBe(201);
  const { id: orderId } = (await bought.json()) as { id: number };
  const shopperContext = await browser.newContext({ baseURL, viewport });
  const shopperPage = await shopperContext.newPage();
  await signIn(shopperPage, shopper);
  await shopperPage.goto("/purchase");
  await waitForHydration(shopperPage);
  return { shopper, shopperPage, shopperContext, userId, orderId };
}

/** Logs in through the login screen, as a person does (the e-mail step, then the password). */
export async function logIn(page: Page, { email, password }: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByRole("textbox", { name: "E-mail" }).fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: /Account menu/ })).toBeVisible();
}

/**
 * What the server charges for a line today, for demo products without sales of their own: the store-wide
 * Friday sale takes 10% off every unit.
 */
export async function linePricer(request: APIRequestContext) {
  const { today } = (await (await request.get("/api/store")).json()) as { today: string };
  return (cents: number, amount: number) =>
    today === "fri" ? Math.round((cents * amount * 90) / 100) : cents * amount;
}

export const dollars = (cents: number) => (cents / 100).toFixed(2);

export async function tokenOf(request: APIRequestContext, shopper: { email: string; password: string }) {
  return (await logInByApi(request, shopper)).accessToken;
}

/** The e2e server's DATA_DIR (its embedded database, generated secrets and the mail it writes as .eml files). */
export const e2eDataDir = new URL(`../${process.env.E2E_DATA_DIR ?? "data/e2e"}/`, import.meta.url);

/**
 * The e2e server's token-signing secret: the one playwright.config.ts gave it (on PostgreSQL), else the one it
 * generated beside its embedded database.
 */
export const e2eJwtSecret = () =>
  process.env.E2E_JWT_SECRET ?? readFileSync(new URL("jwt-secret", e2eDataDir), "utf8").trim();

/** The .eml files the e2e server wrote to this address (DATA_DIR/mail: no SMTP_URL there). */
export async function mailTo(address: string): Promise<string[]> {
  const dir = new URL("mail/", e2eDataDir);
  // Finished messages only: the server writes each one aside (.<id>.<pid>.tmp) and renames it into place.
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".eml"));
  const mails = await Promise.all(names.map((name) => readFile(new URL(name, dir), "utf8")));
  return mails.filter((mail) => mail.includes(address));
}

/** A mail's text as a person reads it: quoted-printable soft line breaks joined, =XX bytes decoded as UTF-8. */
export const readableMail = (mail: string) =>
  Buffer.from(
    mail
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");

/** The demo store's admin (user 1), as README.md prints it. */
export const ADMIN = { email: "admin@voltio.test", password: "Admin1234!" };

/** A name no other journey uses (the journeys share one server): for a journey's own products, categories, sales. */
export const uniqueName = (prefix: string) => `${prefix} ${randomBytes(3).toString("hex")}`;

/** The demo admin's bearer header, for the back office's API. */
export async function adminHeaders(request: APIRequestContext) {
  return { authorization: `Bearer ${await tokenOf(request, ADMIN)}` };
}

/** What POST /api/products takes (the admin's product form). */
export interface ProductBody {
  title: string;
  name: string;
  price: string;
  shippingCost: string;
  description: string;
  stock: number;
  categories: string[];
}

/**
 * A product of this journey's own, made through the admin API in a category of its own (both with unique
 * names): the demo's products, their prices, stock and categories stay as the storefront's journeys read them
 * while the back office's journeys run beside them. Its id and what it was made with come back.
 */
export async function newProduct(
  request: APIRequestContext,
  fields: Partial<ProductBody> = {},
): Promise<ProductBody & { id: number }> {
  const title = fields.title ?? uniqueName("E2E product");
  const body: ProductBody = {
    title,
    name: "E2E product",
    price: "19.99",
    shippingCost: "2",
    description: "Made through the admin API. Used by one journey only. ",
    stock: 10,
    categories: [uniqueName("E2E category")],
    ...fields,
  };
  const created = await request.post("/api/products", { headers: await adminHeaders(request), data: body });
  expect(created.status(), await created.text()).toBe(201);
  return { ...body, id: ((await created.json()) as { id: number }).id };
}

/**
 * Sends an admin's change again, a second later, while the server answers 409 "try again": it lost a lock race
 * on the same rows (on PostgreSQL, e.g. with the payment's webhook still settling the order) and changed
 * nothing, as the server's Retry-After says. The reply it ends with comes back.
 */
export async function sendAgainOnConflict(send: () => Promise<APIResponse>): Promise<APIResponse> {
  let reply!: APIResponse;
  await expect
    .poll(
      async () => {
        reply = await send();
        return reply.status();
      },
      { intervals: [1000], timeout: 20_000 },
    )
    .not.toBe(409);
  return reply;
}

/** Retires a journey's own product (orders keep it): no later journey meets it in the listings. */
export async function retireProduct(request: APIRequestContext, id: number) {
  const retired = await request.delete(`/api/products/${id}`, { headers: await adminHeaders(request) });
  expect(retired.ok(), await retired.text()).toBe(true);
}

/** The sandbox's hosted card page, filled in as a person types. */
export async function payByCard(page: Page, number: string) {
  await expect(page).toHaveURL(/\/pay\/sandbox\//);
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill("12/40");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay US\$/ }).click();
}

/** The header's theme toggle, by its name in either language. */
const THEME_TOGGLE = {
  dark: ["Switch to dark mode", "Cambiar a modo oscuro"],
  light: ["Switch to light mode", "Cambiar a modo claro"],
};

/**
 * Switches the page to `theme` in place, through the header's own toggle (its handler sets the class on
 * <html>, localStorage and every component that reads the theme, as for a person), then waits for the new
 * colours. The toggle is clicked from inside the page, without moving the pointer or the focus: an open menu,
 * preview or dialog stays open, and is checked to have stayed so. The choice is remembered (localStorage), so
 * the next page of the test loads in it too.
 */
export async function switchTheme(page: Page, theme: "light" | "dark") {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const before = await background();
  const state = () =>
    page.evaluate(() => ({
      focused:
        (window as { focusedBeforeTheme?: Element | null }).focusedBeforeTheme === document.activeElement,
      open: document.querySelectorAll(
        '[role="dialog"], [role="alertdialog"], [role="listbox"], [role="menu"], [aria-expanded="true"]',
      ).length,
    }));
  await page.evaluate(() => {
    (window as { focusedBeforeTheme?: Element | null }).focusedBeforeTheme = document.activeElement;
  });
  const opened = await state();
  const clicked = await page.evaluate((names) => {
    const toggle = Array.from(document.querySelectorAll<HTMLButtonElement>("header button")).find((button) =>
      names.includes(button.getAttribute("aria-label") ?? ""),
    );
    toggle?.click();
    return Boolean(toggle);
  }, THEME_TOGGLE[theme]);
  expect(clicked, `the header's toggle to the ${theme} theme`).toBe(true);
  if (theme === "dark") await expect(page.locator("html")).toHaveClass(/(^|\s)dark(\s|$)/);
  else await expect(page.locator("html")).not.toHaveClass(/(^|\s)dark(\s|$)/);
  await expect.poll(background).not.toBe(before);
  // Colours with a transition reach the new theme's a moment later.
  await waitForStillness(page);
  expect(await state(), "what was open and focused before the theme changed").toEqual(opened);
}

/**
 * Axe (as expectNoSeriousAxeViolations) in the theme the page shows, then in the other one, switched in the
 * same page (switchTheme): both themes of one page load. The page is left in the other theme.
 */
export async function expectNoSeriousAxeViolationsInBothThemes(page: Page, include?: string) {
  const dark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
  const [first, second] = dark ? (["dark", "light"] as const) : (["light", "dark"] as const);
  await test.step(`axe in the ${first} theme`, () => expectNoSeriousAxeViolations(page, include));
  await switchTheme(page, second);
  await test.step(`axe in the ${second} theme`, () => expectNoSeriousAxeViolations(page, include));
}

/** An axe audit (WCAG 2.1 A and AA) of what the page shows now: no serious or critical violation. */
export async function expectNoSeriousAxeViolations(page: Page, include?: string) {
  // Colours are read once things stopped moving: a toast fading in is not yet the colour it will have.
  // A toast counts as moving until it is mounted and it and its parts are fully shown or fully hidden:
  // sonner starts a fade only once the toast is mounted, and fades the parts of the toasts behind the front
  // one, so there may be no running transition yet (CI read a title mid-fade twice).
  // Endless animations (skeletons, spinners) don't count, and a page that never settles is audited anyway.
  // A toast closes itself after 2 s (docs/product-rules.md), which can fall in the middle of the audit and fade its text
  // under axe (CI failed so, with the text at 70% of its colour): the pointer on it holds it open, as sonner
  // does for a person reading it. Moved there directly: hover() first waits for a toast still sliding in to
  // stop moving, which under load outlasted its timeout.
  const box = await page
    .locator("[data-sonner-toast]")
    .first()
    .boundingBox({ timeout: 500 })
    .catch(() => null);
  if (box) {
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // The pointer also spreads the stack: the toasts behind the front one fade their text in (0.4 s). Once
    // they say so, that fade is a running transition the wait below sees; before, it may not have begun
    // (CI audited a toast's title mid-fade so).
    await expect(page.locator('[data-sonner-toast][data-expanded="false"]')).toHaveCount(0);
  }
  await waitForStillness(page);
  const violations = await axeViolations(page, { include });
  const serious = violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  expect(
    serious.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    ),
  ).toEqual([]);
}

/**
 * Until things stopped moving (at most 5 s: a page that never settles is read anyway): no toast being mounted
 * or fading, and no running animation or transition but endless ones (skeletons, spinners).
 */
async function waitForStillness(page: Page) {
  await page
    .waitForFunction(
      (call) => {
        const still =
          document.querySelectorAll('[data-sonner-toast][data-mounted="false"]').length === 0 &&
          Array.from(document.querySelectorAll("[data-sonner-toast], [data-sonner-toast] > *")).every(
            (element) => ["0", "1"].includes(getComputedStyle(element).opacity),
          ) &&
          document
            .getAnimations()
            .every(
              (animation) =>
                animation.playState !== "running" ||
                animation.effect?.getComputedTiming().iterations === Infinity,
            );
        // Still over three frames running, not one: a change made by the last event may start its
        // transition only on the next frame.
        const count = window as unknown as { stillness?: { call: number; frames: number } };
        const frames = count.stillness?.call === call ? count.stillness.frames : 0;
        count.stillness = { call, frames: still ? frames + 1 : 0 };
        return count.stillness.frames >= 3;
      },
      Math.random(),
      { timeout: 5000 },
    )
    .catch(() => {});
}

/** A shopper made admin for one journey: the demo admin signs in with a password alone for every other journey. */
export async function newAdmin(page: Page) {
  const account = await newShopper(page.request);
  const { id } = (await (
    await page.request.get("/api/user", {
      headers: { authorization: `Bearer ${await tokenOf(page.request, account)}` },
    })
  ).json()) as { id: number };
  const promoted = await page.request.put("/api/user/admin", {
    headers: { authorization: `Bearer ${await tokenOf(page.request, ADMIN)}` },
    data: { id, rol: "admin" },
  });
  expect(promoted.status(), await promoted.text()).toBe(200);
  return account;
}

import { createHmac } from "node:crypto";
import {
  ADMIN,
  e2eJwtSecret,
  expect,
  expectToastLasts2Seconds,
  logIn,
  mailTo,
  newShopper,
  readableMail,
  signIn,
  test,
  type Page,
} from "./fixtures";

/**
 * Journeys of accounts: sign-up and login, the profile and its addresses, guards and silent token refresh.
 * Journeys that change an account make their own (newShopper); the demo logins are only read.
 */

const SHOPPER = { email: "shopper@voltio.test", password: "Shopper1234!" };
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082",
  "hex",
);

async function logOut(page: Page) {
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Logout ?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Accept" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Log in / Sign up" })).toBeVisible();
}

/** The link mailed to a new e-mail address, used as its page does. */
async function confirmMailedLink(page: Page, address: string) {
  const token = async () =>
    (await mailTo(address))
      .map((mail) => /\/user\/email\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(readableMail(mail))?.[1])
      .find(Boolean);
  await expect.poll(token, { timeout: 20_000 }).toBeDefined();
  const confirmed = await page.request.post("/api/user/email/confirm", { data: { token: await token() } });
  expect(confirmed.ok(), await confirmed.text()).toBe(true);
}

/** Pencil, type, confirm: one field of 'User Data'. */
async function editField(page: Page, label: string, value: string) {
  await page.getByRole("button", { name: `Edit ${label}` }).click();
  const box = page.getByRole("textbox", { name: label, exact: true });
  await expect(box).toBeEnabled();
  await box.fill(value);
  await page.getByRole("button", { name: `Confirm ${label}` }).click();
  await expect(box).toBeDisabled();
  await expect(box).toHaveValue(value);
}

test("register with the form's own messages → the toast's 2 seconds → log in → log out → log in again", async ({
  page,
}) => {
  const email = `nina.${Date.now()}.${test.info().workerIndex}@voltio.test`;
  // The toast's 2 seconds are checked on the page's clock.
  await page.clock.install();
  await page.goto("/login");
  await expect(page.getByText("Put you mail to register or login")).toBeVisible();
  // Google sign-in is offered only when GOOGLE_CLIENT_ID is set; the e2e server has none.
  await expect(page.getByRole("button", { name: "Login with Google" })).toHaveCount(0);
  await page.getByRole("textbox", { name: "E-mail" }).fill(email);
  await page.getByRole("button", { name: "Continue" }).click();

  // The Register form: a failing field turns red and its placeholder shows the failed rule.
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  const firstName = page.getByRole("textbox", { name: "First name" });
  await firstName.fill("Nina 2");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(firstName).toHaveAttribute("placeholder", "Only letters, no spaces or digits");
  await expect(firstName).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("textbox", { name: "Last name" })).toHaveAttribute(
    "placeholder",
    "Last name is required",
  );
  await firstName.fill("Nina");
  await page.getByRole("textbox", { name: "Last name" }).fill("Nakamura");
  await page.getByLabel("Password", { exact: true }).fill("nina-secret-1");

  // After registering the form flips to Login; the toast closes by itself after 2 seconds.
  await expectToastLasts2Seconds(
    page,
    page.getByRole("button", { name: "Sign up" }),
    "Your account is ready. Log in to continue.",
  );
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("The password is incorrect")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("nina-secret-1");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(
    await page.evaluate(() => [localStorage.getItem("access"), localStorage.getItem("refresh")]),
  ).not.toContain(null);

  await logOut(page);
  expect(
    await page.evaluate(() => [localStorage.getItem("access"), localStorage.getItem("refresh")]),
  ).toEqual([null, null]);
  await logIn(page, { email, password: "nina-secret-1" });
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("menuitem", { name: "Profile" }).click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByRole("heading", { name: "Nina Nakamura" })).toBeVisible();
});

test("'User Data': each field locked until its pencil, a refused name kept, names, e-mail and password saved — a fresh login sees them", async ({
  page,
}) => {
  const shopper = await newShopper(page.request);
  await logIn(page, shopper);
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("menuitem", { name: "Profile" }).click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByRole("heading", { name: "User Data" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Test Shopper" })).toBeVisible();

  // Each field is locked until its pencil is pressed, and confirm saves only that field.
  await expect(page.getByRole("textbox", { name: "First name", exact: true })).toBeDisabled();
  // A refused name keeps what was typed, with the rule under the box.
  await page.getByRole("button", { name: "Edit First name" }).click();
  const profileFirstName = page.getByRole("textbox", { name: "First name", exact: true });
  await profileFirstName.fill("Nora 2");
  await page.getByRole("button", { name: "Confirm First name" }).click();
  await expect(profileFirstName).toHaveValue("Nora 2");
  await expect(profileFirstName).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Only letters, no spaces or digits")).toBeVisible();
  await page.getByRole("button", { name: "Edit First name" }).click();
  await editField(page, "First name", "Nora");
  await editField(page, "Last name", "Nakashima");
  await expect(page.getByRole("heading", { name: "Nora Nakashima" })).toBeVisible();
  const newEmail = `nora.${Date.now()}.${test.info().workerIndex}@voltio.test`;
  // The e-mail takes the current password, and changes once the link mailed to the new address is used.
  await page.getByRole("button", { name: "Edit E-mail" }).click();
  await page.getByRole("textbox", { name: "E-mail", exact: true }).fill(newEmail);
  await page.getByLabel("Current password", { exact: true }).fill(shopper.password);
  await page.getByRole("button", { name: "Confirm E-mail" }).click();
  await expect(page.getByRole("status").filter({ hasText: `We sent a link to ${newEmail}` })).toBeVisible();
  await confirmMailedLink(page, newEmail);

  // The new-password box opens only once the old one has text.
  await page.getByRole("button", { name: "Edit Password" }).click();
  const oldBox = page.getByLabel("Old password", { exact: true });
  const newBox = page.getByLabel("New password", { exact: true });
  await expect(newBox).toBeDisabled();
  await page.getByRole("button", { name: "Confirm Password" }).click();
  await expect(page.getByText("Fill in the corresponding fields")).toBeVisible();
  await oldBox.fill(shopper.password);
  await expect(newBox).toBeEnabled();
  await newBox.fill("nora-secret-2");
  await page.getByRole("button", { name: "Confirm Password" }).click();
  await expect(oldBox).toBeDisabled();

  // Everything was saved on the server: a fresh login with the new e-mail and password sees it.
  await logOut(page);
  await logIn(page, { email: newEmail, password: "nora-secret-2" });
  await page.goto("/user");
  await expect(page.getByRole("heading", { name: "Nora Nakashima" })).toBeVisible();
});

test("the picture: pick a file, it uploads, then 'Confirm image' saves it", async ({ page }) => {
  await signIn(page, await newShopper(page.request));
  await page.goto("/user");
  await expect(page.getByRole("heading", { name: "User Data" })).toBeVisible();
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Confirm image" }).click();
  await expect(page.getByRole("button", { name: "Confirm image" })).toHaveCount(0);
  await expect(page.locator('img[src^="/uploads/"]').first()).toBeVisible();
  // Saved on the profile: a new visit shows it.
  await page.reload();
  await expect(page.locator('img[src^="/uploads/"]').first()).toBeVisible();
});

test("addresses: none yet, the required fields, add, edit and delete one — saved on the server", async ({
  page,
}) => {
  await signIn(page, await newShopper(page.request));
  await page.goto("/user");
  await page.getByRole("button", { name: "Edit Adresses" }).click();
  const modal = page.getByRole("dialog", { name: "Adresses" });
  await expect(modal.getByText("No addresses registered")).toBeVisible();
  await modal.getByRole("button", { name: "New Adress" }).click();
  const form = page.getByRole("dialog", { name: "New Adress" });
  await form.getByRole("textbox", { name: "City *" }).fill("Lisbon");
  await form.getByRole("button", { name: "Save address" }).click();
  await expect(page.getByText("Complete the required fields")).toBeVisible();
  await form.getByRole("textbox", { name: "Street *" }).fill("Rua Augusta");
  await form.getByRole("textbox", { name: "Number *" }).fill("100");
  await form.getByRole("textbox", { name: "Postal code *" }).fill("1100-053");
  await form.getByRole("button", { name: "Save address" }).click();
  await expect(modal.getByRole("button", { name: /Lisbon/ })).toBeVisible();

  await modal.getByRole("button", { name: /Lisbon/ }).click();
  await modal.getByRole("textbox", { name: "City *" }).fill("Porto");
  await modal.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Updated data").first()).toBeVisible();
  await expect(modal.getByRole("button", { name: /Porto/ })).toBeVisible();
  // The edit was saved on the server: a new visit lists it.
  await page.reload();
  await page.getByRole("button", { name: "Edit Adresses" }).click();
  await modal.getByRole("button", { name: /Porto/ }).click();
  await modal.getByRole("button", { name: "DeleteAdress" }).click();
  await expect(modal.getByText("No addresses registered")).toBeVisible();
  await modal.getByRole("button", { name: "Close" }).click();

  await page.reload();
  await expect(page.getByText("No addresses registered")).toBeVisible();
});

test("the Overview tabs show '{tab} Empty' and 'Go to {tab}'", async ({ page }) => {
  await logIn(page, await newShopper(page.request));
  await page.goto("/user");
  const overview = page.getByRole("region", { name: "Overview" });
  for (const tab of ["Wishlist", "Cart", "Purchases"]) {
    await overview.getByRole("tab", { name: tab }).click();
    await expect(overview.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
    await expect(overview.getByRole("link", { name: `Go to ${tab}` })).toHaveAttribute("href", `/${tab}`);
  }
});

test("guards: guests leave /user and /purchases, shoppers leave /admin", async ({ page }) => {
  for (const path of ["/user", "/purchases"]) {
    await page.goto(path);
    await expect(page, `guest at ${path}`).toHaveURL(/\/$/);
  }
  // The back office sends a guest to log in, then back home for the footer's checks.
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/");
  // Guests opening Profile or Purchases are told to log in.
  await page.getByRole("contentinfo").getByRole("link", { name: "Profile" }).click();
  await expect(page.getByText("You must be logged in to see your profile.")).toBeVisible();
  await page.keyboard.press("Escape");
  await page.getByRole("contentinfo").getByRole("link", { name: "Purchases" }).click();
  await expect(page.getByText("You must be logged in to see your purchases.")).toBeVisible();
  await page.keyboard.press("Escape");

  await logIn(page, SHOPPER);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/user");
  await expect(page.getByRole("heading", { name: "User Data" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Purchases" }).first()).toBeVisible();
});

test("admins see Panel and never the wishlist, cart or purchases icons", async ({ page }) => {
  await logIn(page, ADMIN);
  await page.goto("/product/1");
  await expect(page.getByRole("button", { name: /cart|wishlist/i })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Buy now" })).toBeDisabled();
  await page.goto("/products?offset=1");
  await expect(page.getByRole("article").first()).toBeVisible();
  await expect(page.getByRole("button", { name: /cart|wishlist/i })).toHaveCount(0);
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Panel" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Purchases" })).toHaveCount(0);
  await expect(header.getByRole("button", { name: /Wishlist|Shopping cart/ })).toHaveCount(0);
  await expect(header.getByRole("link", { name: /Wishlist|Shopping cart/ })).toHaveCount(0);
  await header.getByRole("link", { name: "Panel" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Welcome, Admin Ada!" })).toBeVisible();
  await page.getByRole("button", { name: /Account menu/ }).click();
  await expect(page.getByRole("menuitem", { name: "Panel" })).toBeVisible();
});

test("the header's icons keep their place while the profile menu's code is on its way", async ({ page }) => {
  await logIn(page, ADMIN);
  // A fresh load asks for the menu's chunk again (a routed page skips the HTTP cache): hold it back.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/ProfileMenu-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto("/products?offset=1");
  const panel = page.getByRole("banner").getByRole("link", { name: "Panel" });
  await expect(panel).toBeVisible();
  const before = await panel.boundingBox();
  release();
  await expect(page.getByRole("button", { name: /Account menu/ })).toBeVisible();
  // A click aimed at Panel just before the menu arrived must still land on it.
  expect(await panel.boundingBox()).toEqual(before);
});

/** An HS256 access token like the server's, signed with the e2e server's own secret, already expired. */
function expiredAccessToken(current: string): string {
  const secret = e2eJwtSecret();
  const claims = JSON.parse(Buffer.from(current.split(".")[1]!, "base64url").toString()) as Record<
    string,
    unknown
  >;
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const body = `${encode({ alg: "HS256" })}.${encode({ ...claims, iat: now - 1200, exp: now - 300 })}`;
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}

test("an access token that expires mid-session is refreshed without the shopper noticing", async ({
  page,
}) => {
  await logIn(page, await newShopper(page.request));
  await page.goto("/user");
  await expect(page.getByRole("heading", { name: "User Data" })).toBeVisible();
  const before = await page.evaluate(() => ({
    access: localStorage.getItem("access")!,
    refresh: localStorage.getItem("refresh")!,
  }));
  const expired = expiredAccessToken(before.access);
  await page.evaluate((token) => localStorage.setItem("access", token), expired);

  const expiredReplies: number[] = [];
  page.on("response", (response) => {
    if (response.url().endsWith("/api/user") && response.request().method() === "PUT")
      expiredReplies.push(response.status());
  });
  await editField(page, "Last name", "Refreshed");
  await expect(page.getByText("Updated data").first()).toBeVisible();
  // The first try met the expired token (403), the retry after the refresh succeeded (200).
  expect(expiredReplies).toEqual([403, 200]);
  const after = await page.evaluate(() => ({
    access: localStorage.getItem("access"),
    refresh: localStorage.getItem("refresh"),
  }));
  expect(after.access).not.toBe(expired);
  expect(after.access).not.toBe(before.access);
  // docs/product-rules.md §8: only the access token is replaced; the login's refresh token stays.
  expect(after.refresh).toBe(before.refresh);
});

test("a refused refresh token leaves the shopper signed out", async ({ page }) => {
  await logIn(page, await newShopper(page.request));
  const { access } = await page.evaluate(() => ({ access: localStorage.getItem("access")! }));
  await page.evaluate(
    ([token]) => {
      localStorage.setItem("access", token!);
      localStorage.setItem("refresh", "revoked-or-unknown-refresh-token");
    },
    [expiredAccessToken(access)],
  );
  await page.goto("/user");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Log in / Sign up" })).toBeVisible();
  expect(
    await page.evaluate(() => [localStorage.getItem("access"), localStorage.getItem("refresh")]),
  ).toEqual([null, null]);
});

test("the newsletter block asks 'Are you sure ?' and saves the choice", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Newsletter" })).toHaveCount(0);
  await logIn(page, await newShopper(page.request));
  const toggle = page.getByRole("switch", { name: "Receive the newsletter" });
  const initial = (await toggle.getAttribute("aria-checked")) === "true";
  await toggle.click();
  const confirm = page.getByRole("alertdialog", { name: "Are you sure ?" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(toggle).toHaveAttribute("aria-checked", String(initial));
  await toggle.click();
  await confirm.getByRole("button", { name: "Accept" }).click();
  await expect(toggle).toHaveAttribute("aria-checked", String(!initial));
  await page.reload();
  await expect(page.getByRole("switch", { name: "Receive the newsletter" })).toHaveAttribute(
    "aria-checked",
    String(!initial),
  );
  await page.getByRole("switch", { name: "Receive the newsletter" }).click();
  await page
    .getByRole("alertdialog", { name: "Are you sure ?" })
    .getByRole("button", { name: "Accept" })
    .click();
  await expect(page.getByRole("switch", { name: "Receive the newsletter" })).toHaveAttribute(
    "aria-checked",
    String(initial),
  );
});

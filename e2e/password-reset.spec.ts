import {
  expect,
  expectNoSeriousAxeViolations,
  expectNoSeriousAxeViolationsInBothThemes,
  mailTo,
  newShopper,
  test,
  type Page,
  readableMail,
} from "./fixtures";

/**
 * "Forgot password?" from the login form to the e-mail's link and a new password;
 * registering with a name in Spanish; a refused box keeps what was typed; the login form opens filled in
 * after signing up. Each journey makes its own account.
 */

async function resetLinkOf(email: string): Promise<string> {
  await expect.poll(async () => (await mailTo(email)).length, { timeout: 20_000 }).toBe(1);
  const [mail] = await mailTo(email);
  const link = /https?:\/\/\S+\/password\/reset\?token=[A-Za-z0-9_-]{43}/.exec(readableMail(mail!))?.[0];
  expect(link, mail).toBeDefined();
  return link!;
}

const passwordBox = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** A reset link for the shopper, asked for through the API as the "Forgot password?" page asks. */
async function resetLinkByApi(page: Page, email: string) {
  const asked = await page.request.post("/api/user/password/forgot", { data: { email } });
  expect(asked.ok(), await asked.text()).toBe(true);
  return resetLinkOf(email);
}

test("'Forgot password?' on the login form takes the typed e-mail along, answers the same for every e-mail, and the link arrives", async ({
  page,
}) => {
  const shopper = await newShopper(page.request);
  await page.goto("/login");
  await page.getByRole("textbox", { name: "E-mail" }).fill(shopper.email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("link", { name: "Forgot password?" }).click();

  // The e-mail typed on the login form comes along; the reply says the same for every e-mail.
  await expect(page).toHaveURL(/\/password\/forgot$/);
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "E-mail" })).toHaveValue(shopper.email);
  await page.getByRole("button", { name: "Send me the link" }).click();
  await expect(page.getByRole("status")).toContainText(
    "If an account exists for that e-mail, we sent a link.",
  );
  const link = await resetLinkOf(shopper.email);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
});

test("the e-mail's link → a new password (the rule, a second box that must match) → log in with it; the old one is spent", async ({
  page,
}) => {
  const shopper = await newShopper(page.request);
  await page.goto(await resetLinkByApi(page, shopper.email));
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  // The registration's rule and a second box that must match; what was typed stays.
  await passwordBox(page, "New password").fill("short");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByText("At least 8 characters", { exact: true })).toBeVisible();
  await expect(passwordBox(page, "New password")).toHaveValue("short");
  await passwordBox(page, "New password").fill("Brand-new-pass-1");
  await passwordBox(page, "Repeat the new password").fill("Brand-new-pass-2");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByText("The passwords don't match")).toBeVisible();
  await passwordBox(page, "Repeat the new password").fill("Brand-new-pass-1");
  await page.getByRole("button", { name: "Save the new password" }).click();

  // Back on the login form of that e-mail, which says so.
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("status")).toContainText("Your password was changed");
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "E-mail" })).toHaveValue(shopper.email);
  await expectNoSeriousAxeViolations(page);
  const old = await page.request.post("/api/user/login", {
    data: { email: shopper.email, password: shopper.password },
  });
  expect(old.status()).toBe(401);
  await passwordBox(page, "Password").fill("Brand-new-pass-1");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: /Account menu/ })).toBeVisible();
});

test("a link already used says so and leads to a new one", async ({ page }) => {
  const shopper = await newShopper(page.request);
  const link = await resetLinkByApi(page, shopper.email);
  // Used once, as its page does.
  const token = new URL(link).searchParams.get("token");
  const used = await page.request.post("/api/user/password/reset", {
    data: { token, password: "Brand-new-pass-1" },
  });
  expect(used.ok(), await used.text()).toBe(true);

  await page.goto(link);
  await passwordBox(page, "New password").fill("Another-pass-1");
  await passwordBox(page, "Repeat the new password").fill("Another-pass-1");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByRole("alert")).toHaveText("This link was already used: ask for a new one");
  await page.getByRole("link", { name: "Ask for a new link" }).click();
  await expect(page).toHaveURL(/\/password\/forgot$/);
});

test("registering 'María José' 'Núñez O'Brien': a refused box keeps its text, and the login form opens filled in", async ({
  page,
}) => {
  const email = `maria.jose.${Date.now()}.${test.info().workerIndex}@voltio.test`;
  await page.goto("/login");
  await page.getByRole("textbox", { name: "E-mail" }).fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();

  const firstName = page.getByRole("textbox", { name: "First name" });
  const lastName = page.getByRole("textbox", { name: "Last name" });
  await firstName.fill("María 2");
  await lastName.fill("Núñez O'Brien");
  await passwordBox(page, "Password").fill("maria-secret-1");
  await page.getByRole("button", { name: "Sign up" }).click();
  // Refused with SPEC's rule, shown under the box; nothing typed is lost.
  await expect(firstName).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Only letters, no spaces or digits")).toBeVisible();
  await expect(firstName).toHaveValue("María 2");
  await expect(lastName).toHaveValue("Núñez O'Brien");
  await expect(passwordBox(page, "Password")).toHaveValue("maria-secret-1");
  await expect(firstName).toBeFocused();

  await firstName.fill("María José");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "E-mail" })).toHaveValue(email);
  await expect(passwordBox(page, "Password")).toHaveValue("maria-secret-1");
  // The password was kept in memory only: not in the address, the browser's storage or its history.
  expect(page.url()).not.toContain("maria-secret-1");
  const stored = await page.evaluate(() =>
    JSON.stringify([{ ...localStorage }, { ...sessionStorage }, history.state]),
  );
  expect(stored).not.toContain("maria-secret-1");

  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/user");
  await expect(page.getByRole("heading", { name: "María José Núñez O'Brien" })).toBeVisible();
});

async function expectNoSidewaysScrolling(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test.describe("the new pages pass axe", () => {
  const TOKEN = "A".repeat(43);
  for (const width of [1280, 360]) {
    test(`the forgot page in both themes (${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/password/forgot");
      await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
      // Each state in the theme the last audit left, then in the other one.
      await expectNoSeriousAxeViolationsInBothThemes(page);
      // A refused box, then the neutral reply.
      await page.getByRole("button", { name: "Send me the link" }).click();
      await expect(page.getByText("E-mail is required", { exact: true })).toBeVisible();
      await expectNoSeriousAxeViolationsInBothThemes(page);
      await page.getByRole("textbox", { name: "E-mail" }).fill(`nobody.${width}@voltio.test`);
      await page.getByRole("button", { name: "Send me the link" }).click();
      await expect(page.getByRole("status")).toContainText("If an account exists");
      await expectNoSeriousAxeViolationsInBothThemes(page);
      // No sideways scrolling at phone width.
      await expectNoSidewaysScrolling(page);
    });

    test(`the reset page in both themes (${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/password/reset?token=${TOKEN}`);
      await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
      await expectNoSeriousAxeViolationsInBothThemes(page);
      await page.getByRole("button", { name: "Save the new password" }).click();
      await expect(page.getByText("Password is required", { exact: true })).toBeVisible();
      await expectNoSeriousAxeViolationsInBothThemes(page);
      // A link that is no link.
      await page.goto("/password/reset");
      await expect(page.getByRole("alert")).toHaveText("This link is not valid: ask for a new one");
      await expectNoSeriousAxeViolationsInBothThemes(page);
      await expectNoSidewaysScrolling(page);
    });
  }
});

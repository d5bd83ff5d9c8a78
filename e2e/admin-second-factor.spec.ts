import { Secret, TOTP } from "otpauth";
import { newAdmin, expect, expectNoSeriousAxeViolationsInBothThemes, logIn, test } from "./fixtures";

/**
 * An admin turns two-step sign-in on from the profile, with the key shown on the page typed into an
 * "authenticator app" (otpauth here), keeps the recovery codes, and from then on signs in with the password
 * and a code. By keyboard, with axe in both themes on the set-up and on the code step.
 */

/** The code an authenticator app shows for the key, `steps` 30-second steps from now. */
const codeFor = (key: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(key), timestamp: Date.now() + steps * 30_000 });

test("an admin sets up an authenticator app on the profile and signs in again with a code", async ({
  page,
}) => {
  const admin = await newAdmin(page);
  await logIn(page, admin);
  await page.goto("/user");

  const section = page.getByRole("region", { name: "Two-step sign-in" });
  await expect(section.getByText("Off", { exact: true })).toBeVisible();
  await section.getByRole("button", { name: "Set up" }).click();
  await expect(
    section.getByRole("img", { name: "QR code to add Voltio to your authenticator app" }),
  ).toBeVisible();
  const key = (await section.locator("code").textContent())!.replace(/\s/g, "");
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  const codeBox = section.getByRole("textbox", { name: "Code" });
  await expect(codeBox).toBeFocused();
  await expect(codeBox).toHaveAttribute("autocomplete", "one-time-code");
  await expectNoSeriousAxeViolationsInBothThemes(page, "#two-step-sign-in");

  // A wrong code first: it is said on the box, and nothing is turned on.
  await page.keyboard.type("000000" === codeFor(key) ? "111111" : "000000");
  await page.keyboard.press("Enter");
  await expect(section.getByText("The code is incorrect")).toBeVisible();
  await codeBox.fill(codeFor(key));
  await page.keyboard.press("Enter");

  const codes = section.getByRole("region", { name: "Your recovery codes" });
  await expect(codes.getByRole("listitem")).toHaveCount(10);
  await expect(codes.getByRole("link", { name: "Download" })).toHaveAttribute(
    "download",
    "voltio-recovery-codes.txt",
  );
  await expectNoSeriousAxeViolationsInBothThemes(page, "#two-step-sign-in");
  await codes.getByRole("button", { name: "I've saved them" }).click();
  await expect(section.getByText("On: every sign-in asks for a code.")).toBeVisible();
  await expect(section.getByText("10 recovery codes left")).toBeVisible();

  // Signed out, the password alone no longer signs in: the login asks for the app's code.
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await page.getByRole("alertdialog", { name: "Logout ?" }).getByRole("button", { name: "Accept" }).click();
  await expect(page.getByRole("link", { name: "Log in / Sign up" })).toBeVisible();

  await page.goto("/login");
  await page.getByRole("textbox", { name: "E-mail" }).fill(admin.email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Two-step sign-in" })).toBeVisible();
  const loginCode = page.getByRole("textbox", { name: "Code" });
  await expect(loginCode).toBeFocused();
  await expect(loginCode).toHaveAttribute("autocomplete", "one-time-code");
  await expect(page.getByRole("button", { name: "Use a recovery code" })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "main");

  // The code that turned the app on was used; the next one signs in.
  await page.keyboard.type(codeFor(key, 1));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: /Account menu/ })).toBeVisible();

  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/stats");
  await page.getByRole("banner").getByRole("link", { name: "Panel" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  expect((await answered).status()).toBe(200);
});

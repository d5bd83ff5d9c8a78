import {
  newAdmin,
  expect,
  expectNoSeriousAxeViolationsInBothThemes,
  logIn,
  mailTo,
  newShopper,
  readableMail,
  test,
  type Page,
} from "./fixtures";

/**
 * Passkeys in the real Chromium with its virtual authenticator (DevTools' WebAuthn domain): a platform
 * authenticator that keeps discoverable credentials and verifies its user, as a phone or laptop does. The
 * browser and the server do the whole ceremony; nothing is stubbed.
 */

/** This page's own authenticator: each test's passkeys live only there. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () =>
    (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
  return { credentials };
}

async function logOut(page: Page) {
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await page.getByRole("alertdialog", { name: "Logout ?" }).getByRole("button", { name: "Accept" }).click();
  await expect(page.getByRole("link", { name: "Log in / Sign up" })).toBeVisible();
}

/** Adds a passkey from the profile's "Passkeys" section, by keyboard: the password first, then the device. */
async function addPasskey(page: Page, password: string) {
  await page.goto("/user");
  const section = page.getByRole("region", { name: "Passkeys" });
  await expect(section.getByText("You have no passkeys yet.")).toBeVisible();
  const add = section.getByRole("button", { name: "Add a passkey" });
  await add.focus();
  await page.keyboard.press("Enter");
  await expect(section.getByLabel("Current password")).toBeFocused();
  await page.keyboard.type("not-the-password");
  await page.keyboard.press("Enter");
  await expect(section.getByText("The password is incorrect")).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, 'section[aria-labelledby="passkeys"]');
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Passkey added")).toBeVisible();
  await expect(section.getByRole("listitem")).toHaveCount(1);
  return section;
}

test("a shopper adds a passkey on the profile, signs out and signs in with the passkey alone, then removes it", async ({
  page,
}) => {
  const authenticator = await virtualAuthenticator(page);
  const shopper = await newShopper(page.request);
  await logIn(page, shopper);

  const section = await addPasskey(page, shopper.password);
  const passkey = section.getByRole("listitem");
  await expect(passkey).toContainText("Chrome on Linux");
  await expect(passkey).toContainText("Added:");
  await expect(passkey).toContainText("Not used yet");
  expect(await authenticator.credentials()).toHaveLength(1);
  expect((await authenticator.credentials())[0]).toMatchObject({
    isResidentCredential: true,
    rpId: "localhost",
  });
  await expectNoSeriousAxeViolationsInBothThemes(page, 'section[aria-labelledby="passkeys"]');
  await expect
    .poll(async () => (await mailTo(shopper.email)).map(readableMail).join("\n"), { timeout: 20_000 })
    .toContain("A passkey was added to your Voltio account as a way to sign in.");

  // Signed out, no e-mail or password is typed: the browser offers the passkey it holds.
  await logOut(page);
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: /Account menu/ })).toBeVisible();
  await expect(page.getByText("Welcome, Test!")).toBeVisible();
  expect((await authenticator.credentials())[0]?.signCount).toBeGreaterThan(0);

  // In Spanish, removed after asking, with the keyboard: the section says so and the passkey is gone.
  await page.goto("/user");
  await page.evaluate(() => localStorage.setItem("lang", "es"));
  await page.reload();
  const seccion = page.getByRole("region", { name: "Llaves de acceso (passkeys)" });
  await expect(seccion.getByRole("listitem")).toContainText("Último uso:");
  await seccion.getByRole("button", { name: "Quitar la llave de acceso Chrome on Linux" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: "¿Quitar esta llave de acceso?" });
  await expect(dialog).toContainText("«Chrome on Linux» ya no servirá para entrar en tu cuenta.");
  await expectNoSeriousAxeViolationsInBothThemes(page, '[role="alertdialog"]');
  await dialog.getByRole("button", { name: "Aceptar" }).click();
  await expect(page.getByText("Llave de acceso quitada")).toBeVisible();
  await expect(seccion.getByText("Todavía no tienes llaves de acceso.")).toBeVisible();

  // The browser still holds the credential, but the store no longer accepts it.
  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await logOut(page);
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(
    page.getByText("That passkey wasn't accepted. Try again, or sign in another way."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Log in / Sign up" })).toBeVisible();
});

test("an admin's passkey is the second step after the password", async ({ page }) => {
  await virtualAuthenticator(page);
  const admin = await newAdmin(page);
  await logIn(page, admin);
  await addPasskey(page, admin.password);
  await logOut(page);

  await page.goto("/login");
  await page.getByRole("textbox", { name: "E-mail" }).fill(admin.email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Log in" }).click();
  const step = page.getByRole("region", { name: "Two-step sign-in" });
  await expect(step.getByRole("button", { name: "Use a passkey" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Account menu/ })).toHaveCount(0);
  await expectNoSeriousAxeViolationsInBothThemes(page);
  await step.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page.getByRole("button", { name: /Account menu/ })).toBeVisible();

  // The session proved a second factor: the admin's status says so.
  const status = await page.evaluate(async () => {
    const reply = await fetch("/api/user/second-factor", {
      headers: { authorization: `Bearer ${localStorage.getItem("access")}` },
    });
    return (await reply.json()) as unknown;
  });
  expect(status).toMatchObject({ passkeys: 1, sessionVerified: true });
});

import {
  expect,
  expectNoSeriousAxeViolationsInBothThemes,
  mailTo,
  newShopper,
  readableMail,
  signIn,
  test,
  waitForHydration,
  type Page,
} from "./fixtures";

/**
 * Changing the e-mail from the profile: the current password, the link sent to the new address, the notice
 * to the old one and its "this wasn't me" link, which puts the address back and signs out everywhere. The
 * links are read from the mails the e2e server writes. Each journey makes its own account.
 */

/** The newest link to `path` in the mails addressed to `address` (not merely mentioning it). */
async function linkIn(address: string, path: "confirm" | "revert"): Promise<string> {
  const addressed = async () =>
    (await mailTo(address))
      .map(readableMail)
      .filter((mail) => new RegExp(`^To: .*${address}`, "mi").test(mail));
  const pattern = new RegExp(`https?://\\S+/user/email/${path}\\?token=[A-Za-z0-9_-]{43}`);
  await expect
    .poll(async () => (await addressed()).some((mail) => pattern.test(mail)), { timeout: 20_000 })
    .toBe(true);
  const link = (await addressed()).map((mail) => pattern.exec(mail)?.[0]).find(Boolean);
  return link!;
}

const USER_DATA = 'section[aria-labelledby="user-data"]';
const emailBox = (page: Page) => page.getByRole("textbox", { name: "E-mail" });
const passwordBox = (page: Page) => page.getByLabel("Current password", { exact: true });

test("the e-mail changes only through the new address's link, and the old address can put it back", async ({
  page,
}) => {
  const shopper = await newShopper(page.request);
  const newEmail = shopper.email.replace("shopper.", "moved.");
  await signIn(page, shopper);
  await page.goto("/user");
  await waitForHydration(page);

  // The pencil opens the row with a box for the current password.
  await expect(emailBox(page)).toBeDisabled();
  await page.getByRole("button", { name: "Edit E-mail" }).click();
  await emailBox(page).fill(newEmail);
  await page.getByRole("button", { name: "Confirm E-mail" }).click();
  await expect(page.getByText("Type your current password to change the e-mail")).toBeVisible();
  await passwordBox(page).fill("Not-the-password-1");
  await page.getByRole("button", { name: "Confirm E-mail" }).click();
  await expect(page.getByText("The password is incorrect")).toBeVisible();
  await expect(emailBox(page)).toHaveValue(newEmail);
  await expectNoSeriousAxeViolationsInBothThemes(page, USER_DATA);
  await passwordBox(page).fill(shopper.password);
  await page.getByRole("button", { name: "Confirm E-mail" }).click();
  await expect(page.getByRole("status").filter({ hasText: "We sent a link" })).toHaveText(
    `We sent a link to ${newEmail}. Open it within 30 minutes to change your e-mail; until then it stays ${shopper.email}.`,
  );
  await expect(emailBox(page)).toHaveValue(shopper.email);
  await expectNoSeriousAxeViolationsInBothThemes(page, USER_DATA);

  // The new address's link, opened in this browser.
  await page.goto(await linkIn(newEmail, "confirm"));
  await expect(page.getByRole("heading", { name: "Confirm your new e-mail" })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page);
  await page.getByRole("button", { name: "Confirm the new e-mail" }).click();
  await expect(page.getByRole("status")).toHaveText(`Done: your account now signs in with ${newEmail}.`);
  await expectNoSeriousAxeViolationsInBothThemes(page);
  await page.getByRole("link", { name: "Go to your profile" }).click();
  await expect(emailBox(page)).toHaveValue(newEmail);

  // The old address is told, with a link that puts it back and ends every session.
  const revertLink = await linkIn(shopper.email, "revert");
  await page.goto(revertLink);
  await expect(page.getByRole("heading", { name: "Put your e-mail back" })).toBeVisible();
  await page.getByRole("button", { name: "Put my e-mail back" }).click();
  await expect(page.getByRole("status")).toContainText(
    `${shopper.email} is your account's e-mail again, and every session of the account ended.`,
  );
  await expect(page.getByText("Whoever changed it may know your password: reset it now.")).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page);
  await page.getByRole("link", { name: "Reset my password" }).click();
  await expect(page).toHaveURL(/\/password\/forgot$/);
  await expect(emailBox(page)).toHaveValue(shopper.email);

  // This browser was signed out too; the old address signs in again, the new one doesn't.
  await page.goto("/user");
  await expect(page).not.toHaveURL(/\/user$/);
  const back = await page.request.post("/api/user/login", { data: shopper });
  expect(back.status()).toBe(200);
  const moved = await page.request.post("/api/user/login", { data: { ...shopper, email: newEmail } });
  expect(moved.status()).toBe(401);

  // A link works once.
  await page.goto(revertLink);
  await page.getByRole("button", { name: "Put my e-mail back" }).click();
  await expect(page.getByRole("alert")).toHaveText("This link was already used");
});

test("a client that sends the e-mail alone gets a 400 naming the current password", async ({ page }) => {
  const shopper = await newShopper(page.request);
  const login = await page.request.post("/api/user/login", { data: shopper });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const reply = await page.request.put("/api/user", {
    headers: { authorization: `Bearer ${accessToken}` },
    data: { email: shopper.email.replace("shopper.", "bare.") },
  });
  expect(reply.status()).toBe(400);
  expect(await reply.json()).toMatchObject({
    details: [{ field: "currentPassword", reason: "Type your current password to change the e-mail" }],
  });
});

test("a broken link says so, in Spanish too, and passes axe at phone width", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/user/email/confirm?token=broken");
  await expect(page.getByRole("alert")).toHaveText("This link is not valid");
  await expectNoSeriousAxeViolationsInBothThemes(page);
  await page.addInitScript(() => localStorage.setItem("lang", "es"));
  await page.goto("/user/email/revert");
  await expect(page.getByRole("heading", { name: "Recupera tu correo" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText("Este enlace no es válido");
  await expectNoSeriousAxeViolationsInBothThemes(page);
});

import {
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
 * New passwords must be strong: the register form, the reset page and the profile show a meter with the level
 * and the reason in words, refuse a weak one before sending it, and the API refuses it too.
 */

const meter = (page: Page) => page.getByRole("status").filter({ hasText: /Strength|Seguridad/ });

test("the register form rates the password as it is typed, refuses a common or personal one with the reason, and takes a strong one", async ({
  page,
}) => {
  const email = `paz.${Date.now()}.${test.info().workerIndex}@voltio.test`;
  await page.goto("/login");
  await page.getByRole("textbox", { name: "E-mail" }).fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await page.getByRole("textbox", { name: "First name" }).fill("Paz");
  await page.getByRole("textbox", { name: "Last name" }).fill("Quintana");
  const password = page.getByLabel("Password", { exact: true });

  await password.fill("12345678");
  await expect(meter(page)).toHaveText(
    "Strength: very weak. This password is too common: it is on lists of leaked passwords",
  );
  await expectNoSeriousAxeViolationsInBothThemes(page, "form");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(password).toHaveValue("12345678");

  // The account's own name is as guessable as a leaked password.
  await password.fill("pazquintana");
  await expect(meter(page)).toHaveText(
    /^Strength: (very weak|weak)\. The password is too close to your name or e-mail$/,
  );
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("The password is too close to your name or e-mail").first()).toBeVisible();
  const probe = await page.request.post("/api/user/email", { data: { email } });
  expect(await probe.json()).toMatchObject({ msg: "email doesn't exist" });

  await password.fill("Quartz-lantern-meadow-7");
  await expect(meter(page)).toHaveText("Strength: strong.");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
});

test("the API refuses a weak password with 400 naming the field and the reason, whatever the form did", async ({
  request,
}) => {
  const reply = await request.post("/api/user", {
    data: {
      firstName: "Api",
      lastName: "Weak",
      email: `api.weak.${Date.now()}@voltio.test`,
      password: "Password1",
    },
  });
  expect(reply.status()).toBe(400);
  expect((await reply.json()).details).toEqual([
    { field: "password", reason: "This password is too common: it is on lists of leaked passwords" },
  ]);
});

test("the profile's password change in Spanish: the meter and the refusal in Spanish, by keyboard, then a strong one is saved", async ({
  page,
}) => {
  const shopper = await newShopper(page.request);
  await logIn(page, shopper);
  await page.goto("/user");
  await page.evaluate(() => localStorage.setItem("lang", "es"));
  await page.reload();
  const row = page.locator("form").filter({ has: page.getByLabel("Contraseña nueva", { exact: true }) });
  await row.getByRole("button", { name: "Editar Contraseña" }).click();
  await row.getByLabel("Contraseña actual", { exact: true }).fill(shopper.password);
  const nueva = row.getByLabel("Contraseña nueva", { exact: true });
  await nueva.focus();
  await page.keyboard.type("qwertyuiop");
  await expect(meter(page)).toHaveText(
    "Seguridad: muy débil. Esta contraseña es demasiado común: está en listas de contraseñas filtradas",
  );
  await page.keyboard.press("Enter");
  await expect(nueva).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Esta contraseña es demasiado común", { exact: false }).first()).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "form");

  await nueva.fill("Copper-meadow-falcon-417");
  await expect(meter(page)).toHaveText("Seguridad: fuerte.");
  await page.keyboard.press("Enter");
  await expect(nueva).toBeDisabled();
  const login = await page.request.post("/api/user/login", {
    data: { email: shopper.email, password: "Copper-meadow-falcon-417" },
  });
  expect(login.status()).toBe(200);
});

test("the reset page rates the new password and refuses a weak one before sending it", async ({ page }) => {
  const shopper = await newShopper(page.request);
  const asked = await page.request.post("/api/user/password/forgot", { data: { email: shopper.email } });
  expect(asked.ok()).toBe(true);
  const linkIn = async () =>
    (await mailTo(shopper.email))
      .map((mail) => /https?:\/\/\S+\/password\/reset\?token=[A-Za-z0-9_-]{43}/.exec(readableMail(mail))?.[0])
      .find(Boolean);
  await expect.poll(linkIn, { timeout: 20_000 }).toBeDefined();
  await page.goto((await linkIn())!);
  const newBox = page.getByLabel("New password", { exact: true });
  await newBox.fill("aaaaaaaa");
  await expect(meter(page)).toHaveText(
    "Strength: very weak. The password is a keyboard pattern, a repeat, a sequence or a date",
  );
  await page.getByLabel("Repeat the new password", { exact: true }).fill("aaaaaaaa");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(newBox).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/password\/reset\?token=/);
  await expectNoSeriousAxeViolationsInBothThemes(page, "form");

  await newBox.fill("Brand-new-lantern-9");
  await page.getByLabel("Repeat the new password", { exact: true }).fill("Brand-new-lantern-9");
  await expect(meter(page)).toHaveText("Strength: strong.");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

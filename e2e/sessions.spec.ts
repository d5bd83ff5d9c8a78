import {
  expect,
  expectNoSeriousAxeViolationsInBothThemes,
  logIn,
  mailTo,
  newShopper,
  readableMail,
  test,
  waitForHydration,
} from "./fixtures";

/**
 * "Your sessions" on the profile: a shopper signed in from two browsers ends the other one's session from
 * this one, and the other browser is signed out at its next call to the store.
 */

/** The other browser names itself as Firefox on Windows, so the list (and the notice) can tell them apart. */
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

test("a shopper signed in from two browsers ends the other one's session; that browser is signed out at its next call", async ({
  page,
  browser,
  baseURL,
}) => {
  const shopper = await newShopper(page.request);
  await logIn(page, shopper);

  const otherContext = await browser.newContext({ baseURL, userAgent: FIREFOX_WINDOWS });
  const other = await otherContext.newPage();
  await logIn(other, shopper);
  await waitForHydration(other);

  // The account had signed in before, from another browser: its owner is told of this one.
  await expect
    .poll(async () => (await mailTo(shopper.email)).map(readableMail).join("\n"), { timeout: 20_000 })
    .toContain("from a browser it had not used before: Firefox, Windows.");

  await page.goto("/user");
  const sessions = page.getByRole("region", { name: "Your sessions" });
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  const here = sessions.getByRole("listitem").filter({ hasText: "This device" });
  await expect(here).toHaveCount(1);
  await expect(here).not.toContainText("Firefox on Windows");
  await expect(here.getByRole("button")).toHaveCount(0);
  const theirs = sessions.getByRole("listitem").filter({ hasText: "Firefox on Windows" });
  await expect(theirs).toContainText("Signed in:");
  await expect(theirs).toContainText("Last used:");
  await expectNoSeriousAxeViolationsInBothThemes(page, 'section[aria-labelledby="your-sessions"]');

  // With the keyboard, as a screen reader user would: the button says whose session it ends.
  const end = sessions.getByRole("button", { name: /^End the session of Firefox on Windows, last used / });
  await end.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("The session was ended.")).toBeVisible();
  await expect(sessions.getByRole("listitem")).toHaveCount(1);
  await expect(sessions.getByText("No other session is open.")).toBeVisible();
  await expect(sessions.getByRole("heading", { name: "Your sessions" })).toBeFocused();

  // The other browser still shows the shopper until it asks the store anything: then it is a guest.
  await other.goto("/user");
  await waitForHydration(other);
  await expect(other).toHaveURL(/\/$/);
  await expect(other.getByRole("link", { name: "Log in / Sign up" })).toBeVisible();

  // This browser goes on.
  await page.reload();
  await expect(sessions.getByRole("listitem")).toHaveCount(1);
  await otherContext.close();
});

test("'End all other sessions' signs out every other browser and keeps this one; in Spanish too", async ({
  page,
  browser,
  baseURL,
}) => {
  const shopper = await newShopper(page.request);
  await logIn(page, shopper);
  const others = await Promise.all(
    [FIREFOX_WINDOWS, undefined].map(async (userAgent) => {
      const context = await browser.newContext({ baseURL, ...(userAgent ? { userAgent } : {}) });
      const other = await context.newPage();
      await logIn(other, shopper);
      return { context, page: other };
    }),
  );

  await page.goto("/user");
  await page.evaluate(() => localStorage.setItem("lang", "es"));
  await page.reload();
  const sessions = page.getByRole("region", { name: "Tus sesiones" });
  await expect(sessions.getByRole("listitem")).toHaveCount(3);
  await expect(sessions.getByRole("listitem").filter({ hasText: "Este dispositivo" })).toHaveCount(1);
  await sessions.getByRole("button", { name: "Cerrar todas las demás sesiones" }).click();
  await expect(page.getByText("Se cerraron 2 otras sesiones.")).toBeVisible();
  await expect(sessions.getByRole("listitem")).toHaveCount(1);
  await expect(sessions.getByText("No hay otra sesión abierta.")).toBeVisible();

  for (const other of others) {
    await other.page.goto("/user");
    await waitForHydration(other.page);
    await expect(other.page).toHaveURL(/\/$/);
    await other.context.close();
  }
  await page.reload();
  await expect(sessions.getByRole("listitem")).toHaveCount(1);
});

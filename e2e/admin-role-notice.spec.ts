import { ADMIN, expect, logIn, newShopper, test, tokenOf } from "./fixtures";

/**
 * An admin changes a signed-in user's role. The user is not logged out: their next
 * request tells them in a toast, the header follows the new role, and a demoted admin is turned away from
 * the back office at once.
 */
test("a shopper made admin and back is told each time and stays signed in", async ({ page }) => {
  const shopper = await newShopper(page.request);
  const admin = { authorization: `Bearer ${await tokenOf(page.request, ADMIN)}` };
  const user = (await (
    await page.request.get("/api/user", {
      headers: { authorization: `Bearer ${await tokenOf(page.request, shopper)}` },
    })
  ).json()) as { id: number };

  // Through the form: signIn's init script would put the first tokens back on every reload.
  await logIn(page, shopper);
  const menu = page.getByRole("button", { name: /Account menu/ });
  await expect(menu).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Purchases" })).toBeVisible();

  const setRole = async (rol: "admin" | "user") => {
    const reply = await page.request.put("/api/user/admin", { headers: admin, data: { id: user.id, rol } });
    expect(reply.status(), await reply.text()).toBe(200);
  };

  await setRole("admin");
  // The next request (the page asks who is signed in) brings the notice.
  await page.reload();
  await expect(page.getByText("Your role was changed to Admin")).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Panel" })).toBeVisible();
  await expect(menu).toBeVisible();
  // The back office's first calls are answered while the user is still an admin: the role changes after.
  const answered = Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname === "/api/stats"),
    page.waitForResponse((response) => new URL(response.url()).pathname === "/api/payment/admin"),
  ]);
  await page.getByRole("banner").getByRole("link", { name: "Panel" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  for (const response of await answered) expect(response.status(), response.url()).toBe(200);

  await setRole("user");
  // In the back office: its next call is refused, and the user is told and taken out of it, still signed in.
  await page.reload();
  await expect(page.getByText("Your role was changed to Shopper")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner").getByRole("link", { name: "Panel" })).toHaveCount(0);
  await expect(menu).toBeVisible();
  expect(await page.evaluate(() => Boolean(localStorage.getItem("refresh")))).toBe(true);
});

import {
  ADMIN,
  clickForToast,
  expect,
  newShopper,
  signIn,
  test,
  type Page,
  expectNoSeriousAxeViolationsInBothThemes,
} from "./fixtures";

/**
 * docs/product-rules.md §1 Admin users, §8 User role: an admin finds a new shopper with the search box,
 * makes them admin and back — each change confirmed first, naming the user and the new role (cancel changes
 * nothing) —, can't demote user 1, and deletes an account after 'Delete the User ?' — that
 * account can't log in any more.
 */

const usersTable = (page: Page) => page.getByRole("region", { name: "Users" }).getByRole("table");
/** The table's row of an e-mail (each row shows its e-mail in a cell of its own). */
const rowOf = (page: Page, email: string) =>
  usersTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: email, exact: true }) });

/** Types into the search box and waits for the URL and the list to follow (the box is debounced). */
async function search(page: Page, text: string) {
  await page.getByRole("searchbox", { name: "Search by name or e-mail" }).fill(text);
  await expect.poll(() => new URL(page.url()).searchParams.get("search")).toBe(text);
}

test("search a new shopper, make them admin and back; user 1's role can't be toggled", async ({ page }) => {
  const shopper = await newShopper(page.request);
  await signIn(page, ADMIN);
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
  for (const column of ["ID", "First name", "Last name", "Email", "Role", "Delete"])
    await expect(usersTable(page).getByRole("columnheader", { name: column })).toBeVisible();

  await search(page, shopper.email);
  const row = rowOf(page, shopper.email);
  await expect(usersTable(page).getByRole("row")).toHaveCount(2);
  // The first name opens the customer's page.
  await expect(row.getByRole("link", { name: "Open the customer page of Test Shopper" })).toHaveText("Test");
  await expect(row.getByRole("cell", { name: "Shopper", exact: true })).toBeVisible();
  const role = row.getByRole("button", { name: /^Role of Test Shopper/ });
  await expect(role).toHaveText("user");

  // The role waits for a confirmation that names the user and the new role; Cancel leaves it as it was.
  let changes = 0;
  page.on("request", (request) => {
    if (request.method() === "PUT" && request.url().endsWith("/api/user/admin")) changes += 1;
  });
  await role.click();
  const grant = page.getByRole("alertdialog", { name: "Make Test Shopper an admin ?" });
  await expect(grant).toContainText(`${shopper.email} will run the back office`);
  await grant.getByRole("button", { name: "Cancel" }).click();
  await expect(grant).toBeHidden();
  await expect(role).toBeFocused();
  await expect(role).toHaveText("user");
  expect(changes).toBe(0);
  expect(await roleByApi(page, shopper)).toBe("user");
  // Escape cancels too.
  await role.click();
  await expect(grant).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(grant).toBeHidden();
  expect(changes).toBe(0);

  await role.click();
  await clickForToast(page, grant.getByRole("button", { name: "Accept" }), "Test Shopper is now admin");
  await expect(role).toHaveText("admin");
  await expect(role).toHaveAccessibleName("Role of Test Shopper: admin. Make user");
  // The server says so too: a fresh login is an admin's.
  expect(await roleByApi(page, shopper)).toBe("admin");

  await role.click();
  const revoke = page.getByRole("alertdialog", { name: "Make Test Shopper a user ?" });
  await expect(revoke).toContainText(`${shopper.email} will no longer be an admin`);
  await clickForToast(page, revoke.getByRole("button", { name: "Accept" }), "Test Shopper is now user");
  await expect(role).toHaveText("user");
  expect(await roleByApi(page, shopper)).toBe("user");

  // The search is in the URL: a reload finds the same row.
  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search by name or e-mail" })).toHaveValue(shopper.email);
  await expect(rowOf(page, shopper.email)).toBeVisible();

  await search(page, ADMIN.email);
  const first = rowOf(page, ADMIN.email);
  await expect(first.getByRole("cell", { name: "1", exact: true })).toBeVisible();
  const firstRole = first.getByRole("button", { name: /^Role of / });
  await expect(firstRole).toHaveText("admin");
  await expect(firstRole).toBeDisabled();
  await expect(firstRole).toHaveAccessibleDescription("User 1 is always an admin");
  await expect(first.getByText("User 1 is always an admin")).toBeVisible();
  await expect(first.getByRole("button", { name: /^Delete / })).toBeDisabled();
  // The server refuses the demotion too, in its own words.
  const refused = await page.request.put("/api/user/admin", {
    headers: { authorization: `Bearer ${await tokenOfAdmin(page)}` },
    data: { id: 1 },
  });
  expect(refused.status()).toBeGreaterThanOrEqual(400);
  expect(refused.status()).toBeLessThan(500);
});

test("delete a user after 'Delete the User ?': gone from the list, and their login is refused", async ({
  page,
}) => {
  const kept = await newShopper(page.request);
  const doomed = await newShopper(page.request);
  await signIn(page, ADMIN);
  await page.goto(`/admin/users?search=${encodeURIComponent(doomed.email)}`);
  const row = rowOf(page, doomed.email);
  await row.getByRole("button", { name: "Delete Test Shopper" }).click();

  // Cancel first: nothing happens.
  const dialog = page.getByRole("alertdialog", { name: "Delete the User ?" });
  await expect(dialog).toContainText(doomed.email);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();

  await row.getByRole("button", { name: "Delete Test Shopper" }).click();
  await clickForToast(page, dialog.getByRole("button", { name: "Accept" }), "User deleted");
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(page.getByText("No users match.")).toBeVisible();

  const login = await page.request.post("/api/user/login", {
    data: { email: doomed.email, password: doomed.password },
  });
  expect(login.status()).toBe(401);
  // Only that account: the other new shopper is still listed.
  await search(page, kept.email);
  await expect(rowOf(page, kept.email)).toBeVisible();
});

test("the users screen and its role and delete confirmations pass axe in both themes", async ({ page }) => {
  const shopper = await newShopper(page.request);
  await signIn(page, ADMIN);
  await page.goto("/admin/users");
  await expect(rowOf(page, ADMIN.email)).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page);
  // The confirmations, opened (and cancelled) on a shopper of this test's own.
  await search(page, shopper.email);
  await rowOf(page, shopper.email)
    .getByRole("button", { name: /^Role of .*Make admin$/ })
    .click();
  await expect(page.getByRole("alertdialog", { name: "Make Test Shopper an admin ?" })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page);
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
  await rowOf(page, shopper.email).getByRole("button", { name: "Delete Test Shopper" }).click();
  await expect(page.getByRole("alertdialog", { name: "Delete the User ?" })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page);
});

async function tokenOfAdmin(page: Page) {
  const reply = await page.request.post("/api/user/login", { data: ADMIN });
  return ((await reply.json()) as { accessToken: string }).accessToken;
}

async function roleByApi(page: Page, user: { email: string; password: string }) {
  const login = await page.request.post("/api/user/login", { data: user });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const me = await page.request.get("/api/user", { headers: { authorization: `Bearer ${accessToken}` } });
  return ((await me.json()) as { rol: string }).rol;
}

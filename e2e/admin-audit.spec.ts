import {
  ADMIN,
  expect,
  newShopper,
  signIn,
  test,
  tokenOf,
  type Page,
  expectNoSeriousAxeViolationsInBothThemes,
} from "./fixtures";

/**
 * Beyond docs/product-rules.md: the audit log. An admin's change made through the API — a shopper of
 * this test's own promoted to admin — is listed under its kind of record and its admin, newest first, with
 * who made it and the role before and after; both filters live in the URL.
 */

/** A shopper of this journey's own, promoted by the demo admin: two user.role entries, newest last. */
async function promotedShopper(page: Page) {
  const shopper = await newShopper(page.request);
  const me = await page.request.get("/api/user", {
    headers: { authorization: `Bearer ${await tokenOf(page.request, shopper)}` },
  });
  const { id } = (await me.json()) as { id: number };
  const headers = { authorization: `Bearer ${await tokenOf(page.request, ADMIN)}` };
  const promoted = await page.request.put("/api/user/admin", { headers, data: { id, rol: "admin" } });
  expect(promoted.status(), await promoted.text()).toBe(200);
  return { id, shopper };
}

test("a role change by API is listed under Users and under its admin, with who and the role before and after", async ({
  page,
}) => {
  const { id } = await promotedShopper(page);
  await signIn(page, ADMIN);
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Audit log" })
    .click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();

  const table = page.getByRole("region", { name: "Audit entries" }).getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["When", "Who", "Action", "Record", "Changes"]);

  // The kind of record, then the admin: each goes into the URL.
  await page.getByLabel("Record type").selectOption({ label: "Users" });
  await expect(page).toHaveURL(/\/admin\/audit\?entity=user$/);
  await page.getByLabel("Admin", { exact: true }).selectOption("1");
  await expect(page.getByLabel("Admin", { exact: true }).locator("option:checked")).toHaveText("Ada Admin");
  await expect(page).toHaveURL(/\/admin\/audit\?entity=user&actorId=1$/);
  // Only changes to users are listed once the filter is applied.
  await expect(async () => {
    const actions = await table.locator("tbody code").allTextContents();
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((action) => !action.startsWith("user."))).toEqual([]);
  }).toPass();

  const row = table.getByRole("row").filter({ has: page.getByRole("cell", { name: `#${id}`, exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("user.role");
  await expect(row).toContainText("Ada Admin");
  await expect(row).toContainText("admin@voltio.test");
  const toggle = row.getByRole("button", { name: `Changes of user.role #${id}` });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const changes = page.getByRole("table", { name: "Changes" });
  await expect(changes.getByRole("row")).toHaveText([/Field\s*Before\s*After/, /rol\s*user\s*admin/]);
  await expect(page.getByRole("region", { name: "Full record (JSON)" })).toBeHidden();

  // The filters survive a reload, and another kind of record doesn't list it.
  await page.reload();
  await expect(page.getByLabel("Record type")).toHaveValue("user");
  await expect(page.getByLabel("Admin", { exact: true })).toHaveValue("1");
  await expect(table.getByRole("cell", { name: `#${id}`, exact: true })).toBeVisible();
  await page.getByLabel("Record type").selectOption({ label: "Networks" });
  await expect(page).toHaveURL(/\/admin\/audit\?entity=networks&actorId=1$/);
  await expect(table.getByRole("cell", { name: `#${id}`, exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
});

test("the audit log, an entry open, passes axe in both themes", async ({ page }) => {
  const { id } = await promotedShopper(page);
  await signIn(page, ADMIN);
  await page.goto("/admin/audit?entity=user");
  const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: `#${id}`, exact: true }) });
  await row.getByRole("button", { name: /^Changes/ }).click();
  await expect(page.getByRole("table", { name: "Changes" })).toBeVisible();
  await page.getByText("Full record (JSON)").filter({ visible: true }).click();
  await expect(page.getByRole("region", { name: "Full record (JSON)" })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page);
});

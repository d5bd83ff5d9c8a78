import type { Locator } from "@playwright/test";
import {
  ADMIN,
  clickForToast,
  expect,
  newProduct,
  retireProduct,
  signIn,
  test,
  uniqueName,
  type Page,
  expectNoSeriousAxeViolationsInBothThemes,
} from "./fixtures";

/**
 * docs/product-rules.md §1 Admin discounts, §8 Sales screen, §9 Sale: an admin puts a product on sale
 * from ?p=, sees it among the active sales and on the product's page, edits it, deletes it; and the form's
 * own messages.
 */

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082",
  "hex",
);

const tab = (page: Page, name: "Active sales" | "Create sales") => page.getByRole("tab", { name });
const panel = (page: Page, name: "Active sales" | "Create sales") => page.getByRole("tabpanel", { name });
/** The sale's card in the list: its title button, its bin and its terms. */
const saleCard = (page: Page, description: string) =>
  panel(page, "Active sales").getByRole("article", { name: description, exact: true });
/** Clicks a choice chip as a person does (the radio inside it is for the keyboard and screen readers). */
const choose = (group: Locator, name: string) =>
  group
    .locator("label")
    .filter({ hasText: new RegExp(`^${name}$`) })
    .click();
const discounted = (cents: number, percentage: number) =>
  (Math.round((cents * (100 - percentage)) / 100) / 100).toFixed(2);

test("a sale for one product from ?p=: listed, on the product page, edited, picked twice, deleted", async ({
  page,
}) => {
  const description = uniqueName("E2E tablet deal");
  // A tablet of this test's own: a sale on it changes nobody else's figures.
  const tablet = await newProduct(page.request, { name: "E2E tablet", price: "99.99" });
  const TABLET = { id: tablet.id, title: tablet.title, cents: 9999 };
  await signIn(page, ADMIN);
  // The admin product list's 'Add sale' lands here with the product preselected.
  await page.goto(`/admin/discounts?p=${TABLET.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Manage sales" })).toBeVisible();
  await expect(tab(page, "Create sales")).toHaveAttribute("aria-selected", "true");
  const form = panel(page, "Create sales");
  await expect(form.getByRole("heading", { name: "New sale" })).toBeVisible();
  const products = form.getByRole("group", { name: /^Products/ });
  await expect(products.getByRole("button", { name: `Remove ${TABLET.title}` })).toBeVisible();
  await expect(products.getByRole("checkbox", { name: TABLET.title })).toBeChecked();

  await form.getByLabel("Description").fill(description);
  await form.getByLabel("Percentage").fill("37");
  const days = form.getByRole("group", { name: "Day" });
  await choose(days, "Wednesday");
  // A radio group: the arrow keys move the choice.
  await page.keyboard.press("ArrowRight");
  await expect(days.getByRole("radio", { name: "Thursday" })).toBeChecked();
  await choose(days, "All days");
  await expect(days.getByRole("radio", { name: "All days" })).toBeChecked();
  const requiresMore = form.getByRole("group", { name: "Requires more than one?" });
  await expect(requiresMore.getByRole("radio", { name: "No" })).toBeChecked();
  await expect(form.getByLabel("How many?")).toHaveCount(0);
  // An uploaded picture, through the button's file chooser.
  const chooser = page.waitForEvent("filechooser");
  await form.getByRole("button", { name: "Upload image" }).click();
  await (await chooser).setFiles({ name: "deal.png", mimeType: "image/png", buffer: PNG });
  await expect(form.getByLabel("Image (URL)")).toHaveValue(/^\/uploads\/[a-f0-9]+\.png$/);
  await expect(form.getByRole("img", { name: "Sale image preview" })).toBeVisible();

  // POST /api/sale with the SPEC's fields: the full day name, productAmount 0 for 'No'.
  const posted = page.waitForRequest(
    (request) => request.url().endsWith("/api/sale") && request.method() === "POST",
  );
  await clickForToast(page, form.getByRole("button", { name: "Create new sale" }), "Sale created");
  expect((await posted).postDataJSON()).toMatchObject({
    description,
    percentage: 37,
    day: "all",
    productAmount: 0,
    categories: [],
    products: [TABLET.id],
    image: expect.stringMatching(/^\/uploads\//),
  });

  // Back on 'Active sales', listed with its terms.
  await expect(tab(page, "Active sales")).toHaveAttribute("aria-selected", "true");
  const card = saleCard(page, description);
  await expect(card.getByText("37% OFF")).toBeVisible();
  await expect(card.getByText("All days")).toBeVisible();
  await expect(card.getByText(TABLET.title)).toBeVisible();

  // The storefront prices it at once.
  await page.goto(`/product/${TABLET.id}`);
  const main = page.getByRole("main");
  await expect(main.getByText("37% OFF").first()).toBeVisible();
  await expect(main.getByText(`US$ ${discounted(TABLET.cents, 37)}`).first()).toBeVisible();

  // Picking it loads it into the form; 'Save changes' sends PUT with its id.
  await page.goto("/admin/discounts");
  await expect(tab(page, "Active sales")).toHaveAttribute("aria-selected", "true");
  await saleCard(page, description)
    .getByRole("button", { name: `Edit ${description}` })
    .click();
  await expect(tab(page, "Create sales")).toHaveAttribute("aria-selected", "true");
  await expect(form.getByRole("heading", { name: `Editing “${description}”` })).toBeVisible();
  await expect(form.getByLabel("Description")).toBeFocused();
  await expect(form.getByLabel("Description")).toHaveValue(description);
  await expect(form.getByLabel("Percentage")).toHaveValue("37");
  await expect(products.getByRole("button", { name: `Remove ${TABLET.title}` })).toBeVisible();
  await form.getByLabel("Percentage").fill("42");
  await choose(requiresMore, "Yes");
  await expect(form.getByLabel("How many?")).toHaveValue("1");
  const put = page.waitForRequest(
    (request) => request.url().endsWith("/api/sale") && request.method() === "PUT",
  );
  await clickForToast(page, form.getByRole("button", { name: "Save changes" }), "Changes saved");
  expect((await put).postDataJSON()).toMatchObject({
    percentage: 42,
    productAmount: 1,
    products: [TABLET.id],
  });
  await expect(saleCard(page, description).getByText("42% OFF on 2º unit")).toBeVisible();

  // Picking it loads it; picking it again clears the form.
  const edit = saleCard(page, description).getByRole("button", { name: `Edit ${description}` });
  await edit.click();
  await expect(form.getByLabel("Description")).toHaveValue(description);
  await tab(page, "Active sales").click();
  await expect(edit).toHaveAttribute("aria-pressed", "true");
  await edit.click();
  await expect(edit).toHaveAttribute("aria-pressed", "false");
  await tab(page, "Create sales").click();
  await expect(form.getByRole("heading", { name: "New sale" })).toBeVisible();
  await expect(form.getByLabel("Description")).toHaveValue("");
  await expect(form.getByRole("button", { name: "Create new sale" })).toBeVisible();

  // Delete it, after the confirmation.
  await tab(page, "Active sales").click();
  await saleCard(page, description)
    .getByRole("button", { name: `Delete ${description}` })
    .click();
  const confirm = page.getByRole("alertdialog", { name: "Are you sure you want to delete it ?" });
  await expect(confirm.getByText(description)).toBeVisible();
  const deleted = page.waitForRequest(
    (request) => request.method() === "DELETE" && /\/api\/sale\?saleId=\d+$/.test(request.url()),
  );
  await clickForToast(page, confirm.getByRole("button", { name: "Accept" }), "Sale deleted");
  await deleted;
  await expect(saleCard(page, description)).toHaveCount(0);
  await page.goto(`/product/${TABLET.id}`);
  await expect(page.getByRole("main").getByText(/^42% OFF/)).toHaveCount(0);
  await retireProduct(page.request, TABLET.id);
});

test("the form's messages (missing fields, bad description, percentage, image; nothing sent) and a refused reply as it comes", async ({
  page,
}) => {
  await signIn(page, ADMIN);
  let sent = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/api/sale") && request.method() !== "GET") sent += 1;
  });
  await page.goto("/admin/discounts");
  // The tabs by keyboard.
  await tab(page, "Active sales").focus();
  await page.keyboard.press("ArrowRight");
  await expect(tab(page, "Create sales")).toBeFocused();
  await expect(tab(page, "Create sales")).toHaveAttribute("aria-selected", "true");
  const form = panel(page, "Create sales");

  await form.getByRole("button", { name: "Create new sale" }).click();
  await expect(form.getByRole("alert")).toHaveText("Some fields are missing. Check again");
  await expect(form.getByText("Description required")).toBeVisible();
  await expect(form.getByText("Percentage required")).toBeVisible();
  await expect(form.getByLabel("Description")).toBeFocused();
  await expect(form.getByLabel("Description")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Description").fill("Half price!");
  await form.getByLabel("Percentage").fill("5O");
  await form.getByLabel("Image (URL)").fill("ftp://example.com/sale.png");
  await expect(form.getByText("Invalid description")).toBeVisible();
  await expect(form.getByText("Invalid percentage")).toBeVisible();
  await expect(form.getByText("Invalid link image")).toBeVisible();
  await expect(form.getByLabel("Percentage")).toHaveAccessibleDescription("Invalid percentage");

  // Fixed, the messages go; the alert stays until the form is valid.
  await form.getByLabel("Description").fill("Half price (weekend)");
  await form.getByLabel("Percentage").fill("50");
  await form.getByLabel("Image (URL)").fill("");
  await expect(form.getByText("Invalid description")).toHaveCount(0);
  await expect(form.getByText("Invalid percentage")).toHaveCount(0);
  await expect(form.getByRole("alert")).toHaveText("");
  expect(sent).toBe(0);

  // A reply the server refuses is shown as it comes: its message, and each detail beside its field.
  await page.route("**/api/sale", (route) =>
    route.fulfill({
      status: 400,
      json: {
        error: "A product of the sale doesn't exist",
        details: [{ field: "products.0", reason: "no such product" }],
      },
    }),
  );
  await form.getByRole("button", { name: "Create new sale" }).click();
  await expect(form.getByRole("alert")).toContainText("A product of the sale doesn't exist");
  await expect(form.getByRole("alert").getByRole("listitem")).toHaveText("products.0: no such product");
  await expect(form.getByRole("group", { name: /^Products/ }).getByText("no such product")).toBeVisible();
  await expect(form.getByLabel("Description")).toHaveValue("Half price (weekend)");
});

test("both tabs, the form's messages included, pass axe in both themes", async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto(`/admin/discounts`);
  await expect(panel(page, "Active sales").getByRole("article").first()).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page);
  await tab(page, "Create sales").click();
  const form = panel(page, "Create sales");
  await expect(form.getByRole("checkbox").first()).toBeVisible();
  await form.getByLabel("Image (URL)").fill("ftp://example.com/sale.png");
  await form.getByRole("button", { name: "Create new sale" }).click();
  await expect(form.getByText("Description required")).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page);
});

import {
  ADMIN,
  adminHeaders,
  clickForToast,
  expect,
  newProduct,
  newShopper,
  retireProduct,
  signIn,
  test,
  tokenOf,
  uniqueName,
  expectNoSeriousAxeViolations,
} from "./fixtures";

/**
 * The back office's shell and products — an admin creates a product with an
 * uploaded picture, finds it in the store and its search, edits its price, puts it on sale from its row, and
 * deletes it (a past order keeps it); a shopper and a guest are kept out of /admin. Each step is a journey of
 * its own on a product of its own, made through the API (fixtures.ts: newProduct).
 */

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082",
  "hex",
);

test("the dashboard: the welcome, its charts' latest users and the way to all users, with no axe violation", async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Welcome, Admin Ada!" })).toBeVisible();
  // The dashboard: its charts and the latest users, from GET /api/stats.
  await expect(page.getByRole("heading", { name: "Latest users" })).toBeVisible();
  // Shoppers of other journeys may be the newest by now: any one of them, and the way to all users.
  const latest = page.getByRole("region", { name: "Latest users" });
  await expect(latest.getByRole("listitem").first()).toBeVisible();
  await expect(latest.getByRole("link", { name: "See all users" })).toHaveAttribute("href", "/admin/users");
  await expectNoSeriousAxeViolations(page);
  const menu = page.getByRole("navigation", { name: "Back office" });
  await menu.getByRole("link", { name: "Create products" }).click();
  await expect(page).toHaveURL(/\/admin\/create\/Product$/);
});

test("create a product with an uploaded image: the form's messages, its preview, then in the store and its search", async ({
  page,
}) => {
  // Its category is new too, and of this test's own: the demo's categories keep their products.
  const title = uniqueName("Voltio Test Dock");
  const category = uniqueName("Docks");
  await signIn(page, ADMIN);
  await page.goto("/admin/create/Product");

  const form = page.getByRole("region", { name: "Product details" });
  // The submit button appears once there is a title and a category (docs/product-rules.md §1).
  await expect(form.getByRole("button", { name: "Create product" })).toHaveCount(0);
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("New category").fill(category);
  await form.getByRole("button", { name: "Add" }).first().click();
  await expect(form.getByRole("button", { name: `Remove category ${category}` })).toBeVisible();
  // Invalid: 'Denied' / 'Please, fill in all the fields' and, for the negative price, its own message
  // (e2e/admin-phone.spec.ts has a negative price alone), then each field's SPEC message.
  await form.getByLabel("Price (US$)").fill("-1");
  await form.getByRole("button", { name: "Create product" }).click();
  const denied = page.getByRole("dialog", { name: "Denied" });
  await expect(denied).toContainText("Please, fill in all the fields The value cannot be negative");
  await denied.getByRole("button", { name: "Close" }).first().click();
  await expect(form.getByText("enter the name please")).toBeVisible();
  await expect(form.getByText("The value cannot be negative")).toBeVisible();

  await form.getByLabel("Name").fill("USB-C docking station");
  await form.getByLabel("Price (US$)").fill("89.90");
  await form.getByLabel("Shipping cost (US$)").fill("0");
  await form.getByLabel("Stock").fill("7");
  await form.getByLabel("Description").fill("Ten ports. One cable. Works with every laptop");
  await form
    .getByLabel("Upload images")
    .setInputFiles({ name: "dock.png", mimeType: "image/png", buffer: PNG });
  await expect(form.getByRole("button", { name: "Remove image" })).toBeVisible();
  // The live preview is the storefront's own card.
  await expect(page.getByRole("complementary", { name: "Preview" }).getByText(title)).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await form.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("dialog", { name: "Product Create !!" })).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).first().click();

  // In the store and its search at once.
  await page.goto(`/products?search=${encodeURIComponent(title)}&offset=1`);
  const card = page.getByRole("article").filter({ hasText: title });
  await expect(card.getByText("US$ 89.90")).toBeVisible();
  await card.getByRole("link", { name: title }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(
    page.getByRole("list", { name: "Categories" }).getByRole("link", { name: category }),
  ).toBeVisible();
  await retireProduct(page.request, Number(page.url().split("/").pop()));
});

test("edit a product's price from the admin list: the store shows the new price", async ({ page }) => {
  const { id, title } = await newProduct(page.request, { name: "USB-C docking station", price: "89.90" });
  await signIn(page, ADMIN);
  await page.goto(`/admin/products?search=${encodeURIComponent(title)}&offset=1`);
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("link", { name: `Edit ${title}` }).click();
  await expect(page.getByLabel("Price (US$)")).toHaveValue("89.90");
  await page.getByLabel("Price (US$)").fill("79.90");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await page
    .getByRole("alertdialog", { name: "Is the product ready ?" })
    .getByRole("button", { name: "Accept" })
    .click();
  await expect(page.getByText("Changes saved successfully !!")).toBeVisible();
  await page.goto(`/product/${id}`);
  await expect(page.getByText("US$ 79.90").first()).toBeVisible();
  await retireProduct(page.request, id);
});

test("put a product on sale from its row: 'Add sale' preselects it, and its page shows the badge and the price", async ({
  page,
}) => {
  const { id: productId, title } = await newProduct(page.request, { price: "79.90" });
  await signIn(page, ADMIN);
  await page.goto(`/admin/products?search=${encodeURIComponent(title)}&offset=1`);
  await page.getByRole("link", { name: `Add sale to ${title}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/discounts\\?p=${productId}$`));
  const saleForm = page.getByRole("tabpanel", { name: "Create sales" });
  await expect(
    saleForm.getByRole("group", { name: /^Products/ }).getByRole("button", { name: `Remove ${title}` }),
  ).toBeVisible();
  await saleForm.getByLabel("Description").fill(`Dock deal ${title.slice(-6)}`);
  await saleForm.getByLabel("Percentage").fill("25");
  const posted = page.waitForRequest(
    (request) => request.url().endsWith("/api/sale") && request.method() === "POST",
  );
  await clickForToast(page, saleForm.getByRole("button", { name: "Create new sale" }), "Sale created");
  // On this product alone: a sale without products or categories would be store-wide.
  expect((await posted).postDataJSON()).toMatchObject({ products: [productId], categories: [] });
  await page.goto(`/product/${productId}`);
  await expect(page.getByText("25% OFF").first()).toBeVisible();
  await expect(page.getByText("US$ 59.93").first()).toBeVisible();
  // Retired, its sale goes with it (the next journey proves it).
  await retireProduct(page.request, productId);
});

test("delete a product on sale that a shopper bought: gone from the store, its search and its sale; the purchase keeps it", async ({
  page,
}) => {
  const { id: productId, title } = await newProduct(page.request);
  const deal = `Dock deal ${title.slice(-6)}`;
  const sale = await page.request.post("/api/sale", {
    headers: await adminHeaders(page.request),
    data: { description: deal, percentage: 25, day: "all", products: [productId] },
  });
  expect(sale.status(), await sale.text()).toBe(201);
  // A shopper buys it before it is deleted: the purchase keeps its product.
  const shopper = await newShopper(page.request);
  const headers = { authorization: `Bearer ${await tokenOf(page.request, shopper)}` };
  const bought = await page.request.post("/api/order", {
    headers,
    data: { status: "pending", productId, amount: 1 },
  });
  expect(bought.status(), await bought.text()).toBe(201);

  // Delete it: gone from the store.
  await signIn(page, ADMIN);
  await page.goto(`/admin/products?search=${encodeURIComponent(title)}&offset=1`);
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  await page
    .getByRole("alertdialog", { name: "Are you sure you want to delete it ?" })
    .getByRole("button", { name: "Accept" })
    .click();
  await expect(page.getByText("No products match.")).toBeVisible();
  expect((await page.request.get(`/api/products/${productId}`)).status()).toBe(404);
  const search = await page.request.get(`/api/products?search=${encodeURIComponent(title)}`);
  expect(((await search.json()) as { total: number }).total).toBe(0);
  // Its sale binds nothing any more, and never reads as store-wide.
  const sales = (await (await page.request.get("/api/sale")).json()) as { description: string }[];
  expect(sales.map((sale) => sale.description)).not.toContain(deal);
  const purchases = await page.request.get("/api/order?status=pending", { headers });
  expect(await purchases.json()).toEqual([expect.objectContaining({ id: productId, title })]);
});

test("a shopper opening /admin lands on /, a guest on /login", async ({ page }) => {
  await page.goto("/admin/products");
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, await newShopper(page.request));
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/$/);
});

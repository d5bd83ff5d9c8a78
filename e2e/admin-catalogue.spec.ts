import { PRODUCT_CSV_COLUMNS } from "@voltio/domain/product-csv";
import {
  ADMIN,
  adminHeaders,
  clickForToast,
  expect,
  expectNoSeriousAxeViolationsInBothThemes,
  newProduct,
  retireProduct,
  signIn,
  test,
  uniqueName,
  type Page,
} from "./fixtures";

/**
 * The back office's catalogue structure (issue 41 points 1, 2, 8): an admin sells a product in a 2×2 matrix
 * (Colour × Memory) with each variant's price and stock set in the grid, creates a brand and an attribute
 * and fills the attribute in (checked by type before it is sent), imports a CSV that is refused with its
 * line number and then a good one, and the screens pass axe in both themes. Every journey works on products,
 * categories and brands of its own (fixtures.ts: newProduct, uniqueName).
 */

interface Variant {
  id: number;
  sku: string;
  options: Record<string, string>;
  price: number;
  stock: number;
}

interface ProductReply {
  price: number;
  stock: number;
  brand: { id: number; name: string; slug: string } | null;
  specs: { key: string; label: string; value: string | number; unit: string | null }[];
  options: { name: string; values: string[] }[];
  variants: Variant[];
}

async function productOf(page: Page, id: number): Promise<ProductReply> {
  const reply = await page.request.get(`/api/products/${id}`);
  expect(reply.ok(), await reply.text()).toBe(true);
  return (await reply.json()) as ProductReply;
}

/** The variants card of /admin/details/:id, once the product has loaded. */
async function openDetails(page: Page, productId: number) {
  await page.goto(`/admin/details/${productId}`);
  const variants = page.getByRole("region", { name: "Options and variants" });
  await expect(variants).toBeVisible();
  return variants;
}

test("the admin sells a product in Colour × Memory: four variants generated, priced and stocked in the grid, one retired", async ({
  page,
}) => {
  const product = await newProduct(page.request, { price: "100", stock: 3 });
  await signIn(page, ADMIN);
  const card = await openDetails(page, product.id);
  // Without options the grid is the product's one default variant.
  await expect(card.getByRole("row")).toHaveCount(2);

  await card.getByRole("button", { name: "Add option" }).click();
  await card.getByRole("button", { name: "Add option" }).click();
  await card.getByLabel("Option 1", { exact: true }).fill("Colour");
  await card.getByLabel(/^Values of option 1/).fill("Black, White");
  await card.getByLabel("Option 2", { exact: true }).fill("Memory");
  await card.getByLabel(/^Values of option 2/).fill("16 GB, 32 GB");
  await card.getByRole("button", { name: "Generate variants" }).click();

  const grid = card.getByRole("table", { name: "Options and variants" });
  const names = ["Black / 16 GB", "Black / 32 GB", "White / 16 GB", "White / 32 GB"];
  // A header row and one row per combination, each named by its values.
  await expect(grid.getByRole("row")).toHaveCount(1 + names.length);
  for (const name of names) await expect(grid.getByRole("rowheader", { name })).toBeVisible();

  const prices = ["100.00", "120.00", "105.00", "125.00"];
  const stocks = ["4", "2", "0", "7"];
  for (const [index, name] of names.entries()) {
    await grid.getByLabel(`SKU — ${name}`).fill(`E2E-${product.id}-${index + 1}`);
    await grid.getByLabel(`Price — ${name}`).fill(prices[index]!);
    await grid.getByLabel(`Stock — ${name}`).fill(stocks[index]!);
  }
  await clickForToast(page, card.getByRole("button", { name: "Save variants" }), "Saved");

  const saved = await productOf(page, product.id);
  expect(saved.options).toEqual([
    { name: "Colour", values: ["Black", "White"] },
    { name: "Memory", values: ["16 GB", "32 GB"] },
  ]);
  expect(
    saved.variants
      .map((variant) => ({ ...variant.options, price: variant.price, stock: variant.stock }))
      .sort((a, b) => a.price - b.price),
  ).toEqual([
    { Colour: "Black", Memory: "16 GB", price: 100, stock: 4 },
    { Colour: "White", Memory: "16 GB", price: 105, stock: 0 },
    { Colour: "Black", Memory: "32 GB", price: 120, stock: 2 },
    { Colour: "White", Memory: "32 GB", price: 125, stock: 7 },
  ]);
  // The product row follows its live variants: the lowest price, the stock summed.
  expect(saved.price).toBe(100);
  expect(saved.stock).toBe(13);

  // Retiring one variant and saving leaves the other three on sale.
  await page.reload();
  const reloaded = page.getByRole("region", { name: "Options and variants" });
  await reloaded.getByRole("button", { name: "Retire White / 32 GB" }).click();
  await expect(reloaded.getByRole("rowheader", { name: "White / 32 GB" })).toHaveCount(0);
  await clickForToast(page, reloaded.getByRole("button", { name: "Save variants" }), "Saved");
  const retired = await productOf(page, product.id);
  expect(retired.variants.map((variant) => variant.sku).sort()).toEqual(
    [1, 2, 3].map((n) => `E2E-${product.id}-${n}`),
  );
  expect(retired.stock).toBe(6);

  // A SKU another variant has is refused on the later one's cell, and nothing is saved.
  const rows = reloaded.getByRole("table", { name: "Options and variants" }).getByRole("row");
  const firstSku = await rows.nth(1).getByLabel(/^SKU/).inputValue();
  const lastSku = rows.last().getByLabel(/^SKU/);
  await lastSku.fill(firstSku);
  await reloaded.getByRole("button", { name: "Save variants" }).click();
  await expect(lastSku).toHaveAttribute("aria-invalid", "true");
  // The reason is the cell's description, read with it.
  await expect(page.locator(`[id="${await lastSku.getAttribute("aria-describedby")}"]`)).toContainText(
    "SKU too",
  );
  expect((await productOf(page, product.id)).variants.map((variant) => variant.sku).sort()).toEqual(
    [1, 2, 3].map((n) => `E2E-${product.id}-${n}`),
  );
  await retireProduct(page.request, product.id);
});

test("the admin creates a brand and a RAM attribute, then gives a product both: a non-number is refused before it is sent", async ({
  page,
}) => {
  const product = await newProduct(page.request);
  const category = product.categories[0]!;
  const brand = uniqueName("E2E Brand");
  await signIn(page, ADMIN);
  await page.goto("/admin/catalogue");

  const brands = page.getByRole("region", { name: "Brands" });
  await brands.getByLabel("Brand name").fill(brand);
  await clickForToast(page, brands.getByRole("button", { name: "Add brand" }), "Brand created");
  const brandRow = brands.getByRole("row").filter({ hasText: brand });
  await expect(brandRow).toBeVisible();
  // Its slug comes from the name; no product uses it yet.
  await expect(brandRow.getByRole("cell").nth(1)).toHaveText(brand.toLowerCase().replace(/\s+/g, "-"));
  // Edited: a slug of the admin's own.
  const slug = `e2e-${Date.now().toString(36)}`;
  await brands.getByRole("button", { name: `Edit the brand ${brand}` }).click();
  await brands.getByLabel("Slug").fill(slug);
  await clickForToast(page, brands.getByRole("button", { name: "Save brand" }), "Brand saved");
  await expect(brandRow.getByRole("cell").nth(1)).toHaveText(slug);

  const attributes = page.getByRole("region", { name: "Attributes" });
  await attributes.getByLabel("Category").selectOption({ label: category });
  await attributes.getByLabel("Key", { exact: true }).fill("ram_gb");
  await attributes.getByLabel("Label", { exact: true }).fill("RAM");
  await attributes.getByLabel("Type").selectOption({ label: "Number" });
  await attributes.getByLabel("Unit").fill("GB");
  await clickForToast(page, attributes.getByRole("button", { name: "Add attribute" }), "Attribute created");
  await expect(attributes.getByRole("rowheader", { name: "RAM" })).toBeVisible();
  // Edited: more RAM is better (the compare page marks it).
  await attributes.getByRole("button", { name: "Edit the attribute RAM" }).click();
  await attributes.getByLabel("Better when").selectOption({ label: "Higher" });
  await clickForToast(page, attributes.getByRole("button", { name: "Save attribute" }), "Attribute saved");
  await expect(attributes.getByRole("row").filter({ hasText: "ram_gb" })).toContainText("Higher");
  const categoryId = (
    (await (await page.request.get(`/api/products/${product.id}`)).json()) as { categories: { id: number }[] }
  ).categories[0]!.id;
  const ofCategory = (await (await page.request.get(`/api/attributes?categoryId=${categoryId}`)).json()) as {
    key: string;
    unit: string | null;
    betterWhen: string | null;
  }[];
  expect(ofCategory).toMatchObject([{ key: "ram_gb", unit: "GB", betterWhen: "higher" }]);

  // The product's own page lists its category's attribute, with its unit.
  await page.goto(`/admin/details/${product.id}`);
  const specs = page.getByRole("region", { name: "Brand and specifications" });
  await specs.getByLabel("Brand").selectOption({ label: brand });
  const ram = specs.getByLabel("RAM (GB)");
  await ram.fill("lots");
  await specs.getByRole("button", { name: "Save specifications" }).click();
  await expect(ram).toHaveAttribute("aria-invalid", "true");
  // The reason is read with the field.
  const describedBy = await ram.getAttribute("aria-describedby");
  expect(describedBy).toBeTruthy();
  await expect(page.locator(`[id="${describedBy}"]`)).not.toBeEmpty();
  expect((await productOf(page, product.id)).specs).toEqual([]);

  await ram.fill("16");
  await clickForToast(page, specs.getByRole("button", { name: "Save specifications" }), "Saved");
  await expect(ram).not.toHaveAttribute("aria-invalid", "true");
  const saved = await productOf(page, product.id);
  expect(saved.brand?.name).toBe(brand);
  expect(saved.specs).toEqual([{ key: "ram_gb", label: "RAM", value: 16, unit: "GB" }]);

  // The brand now counts the product.
  await page.goto("/admin/catalogue");
  await expect(
    page
      .getByRole("region", { name: "Brands" })
      .getByRole("row")
      .filter({ hasText: brand })
      .getByRole("cell")
      .nth(2),
  ).toHaveText("1");

  // The products list filters by that brand, then by low stock too (the product has 10 in stock).
  await page.goto("/admin/products");
  await page.getByLabel("Brand", { exact: true }).selectOption({ label: brand });
  await expect(page).toHaveURL(new RegExp(`[?&]brand=${saved.brand!.slug}(&|$)`));
  const list = page.getByRole("region", { name: "Products" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("listitem")).toContainText(product.title);
  await page.getByLabel("Low stock").selectOption({ label: "5 or fewer" });
  await expect(page).toHaveURL(/[?&]maxStock=5(&|$)/);
  await expect(list.getByText("No products match.")).toBeVisible();
  await page.getByLabel("Low stock").selectOption({ label: "10 or fewer" });
  await expect(list.getByRole("listitem")).toContainText(product.title);
  await retireProduct(page.request, product.id);
});

/** A CSV of the import's columns: one row per object, the columns it leaves out empty. */
function csvOf(rows: Record<string, string>[]) {
  const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  return [
    PRODUCT_CSV_COLUMNS.join(","),
    ...rows.map((row) => PRODUCT_CSV_COLUMNS.map((column) => quote(row[column] ?? "")).join(",")),
  ].join("\r\n");
}

test("a CSV import: a refused file names its line and changes nothing, then a good one creates the product", async ({
  page,
}) => {
  const category = uniqueName("E2E CSV category");
  const good = uniqueName("E2E CSV keyboard");
  const bad = uniqueName("E2E CSV mouse");
  const row = (title: string, sku: string, price: string) => ({
    title,
    name: "CSV product",
    description: "Made by a CSV import in an end-to-end journey.",
    categories: category,
    shipping_cost: "2",
    sku,
    price,
    stock: "5",
    sale_eligible: "true",
  });
  const tag = Date.now().toString(36);
  await signIn(page, ADMIN);
  await page.goto("/admin/catalogue");
  const csv = page.getByRole("region", { name: "Products as CSV" });

  // Line 3 (the header is line 1) has a price that is no number: the whole file is refused.
  await csv.getByLabel("Import CSV").setInputFiles({
    name: "refused.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      csvOf([row(good, `E2E-CSV-${tag}-1`, "49.90"), row(bad, `E2E-CSV-${tag}-2`, "cheap")]),
    ),
  });
  await expect(csv.getByRole("listitem").filter({ hasText: /^Line 3, price/ })).toBeVisible();
  const search = async (title: string) =>
    (
      (await (await page.request.get(`/api/products?search=${encodeURIComponent(title)}`)).json()) as {
        products: { id: number; title: string }[];
      }
    ).products.filter((product) => product.title === title);
  // Nothing half-imported: the good first line is not in the store either.
  expect(await search(good)).toEqual([]);

  await csv.getByLabel("Import CSV").setInputFiles({
    name: "good.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csvOf([row(good, `E2E-CSV-${tag}-1`, "49.90")])),
  });
  await expect(csv.getByText("Imported: 1 created, 0 updated")).toBeVisible();
  await expect(csv.getByRole("listitem")).toHaveCount(0);
  const [created] = await search(good);
  expect(created).toBeDefined();
  const imported = await productOf(page, created!.id);
  expect(imported.price).toBe(49.9);
  expect(imported.variants.map((variant) => variant.sku)).toEqual([`E2E-CSV-${tag}-1`]);
  await retireProduct(page.request, created!.id);
});

test("the brands, attributes and CSV screen, with a category's attributes open, passes axe in both themes", async ({
  page,
}) => {
  const product = await newProduct(page.request);
  const category = product.categories[0]!;
  const categoryId = (
    (await (await page.request.get(`/api/products/${product.id}`)).json()) as {
      categories: { id: number; name: string }[];
    }
  ).categories[0]!.id;
  const attribute = await page.request.post("/api/attributes", {
    headers: await adminHeaders(page.request),
    data: {
      categoryId,
      key: "connection",
      label: "Connection",
      type: "enum",
      enumValues: ["Wired", "Wireless"],
    },
  });
  expect(attribute.status(), await attribute.text()).toBe(201);
  await signIn(page, ADMIN);
  await page.goto("/admin/catalogue");
  const attributes = page.getByRole("region", { name: "Attributes" });
  await attributes.getByLabel("Category").selectOption({ label: category });
  await expect(attributes.getByText(/^Connection/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Brands" }).getByRole("row").nth(1)).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page);
  await retireProduct(page.request, product.id);
});

test("a product's specifications and variants grid, an error shown, passes axe in both themes", async ({
  page,
}) => {
  const product = await newProduct(page.request);
  const categoryId = (
    (await (await page.request.get(`/api/products/${product.id}`)).json()) as {
      categories: { id: number }[];
    }
  ).categories[0]!.id;
  const attribute = await page.request.post("/api/attributes", {
    headers: await adminHeaders(page.request),
    data: { categoryId, key: "dpi", label: "Resolution", type: "number", unit: "DPI" },
  });
  expect(attribute.status(), await attribute.text()).toBe(201);
  await signIn(page, ADMIN);
  const card = await openDetails(page, product.id);
  await card.getByRole("button", { name: "Add option" }).click();
  await card.getByLabel("Option 1", { exact: true }).fill("Colour");
  await card.getByLabel(/^Values of option 1/).fill("Black, White");
  await card.getByRole("button", { name: "Generate variants" }).click();
  await expect(card.getByRole("rowheader", { name: "White" })).toBeVisible();
  const specs = page.getByRole("region", { name: "Brand and specifications" });
  await specs.getByLabel("Resolution (DPI)").fill("fast");
  await specs.getByRole("button", { name: "Save specifications" }).click();
  await expect(specs.getByLabel("Resolution (DPI)")).toHaveAttribute("aria-invalid", "true");
  await expectNoSeriousAxeViolationsInBothThemes(page);
  await retireProduct(page.request, product.id);
});

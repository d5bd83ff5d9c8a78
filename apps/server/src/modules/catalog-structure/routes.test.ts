import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "@voltio/domain/catalog";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers } from "../../../test/shop";

/**
 * Brands, attributes and a product's specifications and variants in the back office (issue 41,
 * docs/product-rules.md §2.10, §7.3.1): admins write them, everyone reads them, bad input is a 400 naming
 * the field, and the product reply shows them at once.
 */
let t: TestContext;
let admin: Headers;
let shopper: Headers;
let serial = 0;

const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object, headers = admin) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

const fieldOf = (reply: { json: () => unknown }) =>
  (reply.json() as { details?: { field: string }[]; field?: string }).details?.[0]?.field ??
  (reply.json() as { field?: string }).field;

async function newCategoryProduct() {
  const category = `Laptops ${++serial}`;
  const made = await call("POST", "/api/products", {
    title: `Laptop ${serial}`,
    name: "laptop",
    price: 999,
    shippingCost: 0,
    description: "A laptop",
    stock: 5,
    categories: [category],
  });
  expect(made.statusCode, made.body).toBe(201);
  const product = made.json<Product & { categories: { id: number }[] }>();
  return { product, categoryId: product.categories[0]!.id, category };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.bearer(1);
  shopper = await shop(t).newShopper();
});
afterAll(() => t.close());

describe("brands", () => {
  it("are created by admins with a slug from the name, listed to all, and refused twice whatever the case", async () => {
    expect((await call("POST", "/api/brands", { name: "Logitech G" }, shopper)).statusCode).toBe(403);
    const made = await call("POST", "/api/brands", { name: "Logitech G" });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toEqual({
      id: expect.any(Number),
      name: "Logitech G",
      slug: "logitech-g",
      logo: null,
      productCount: 0,
    });
    const again = await call("POST", "/api/brands", { name: "LOGITECH g" });
    expect(again.statusCode).toBe(409);
    expect(fieldOf(again)).toBe("name");
    expect((await call("POST", "/api/brands", { name: "Razer", slug: "Not A Slug" })).statusCode).toBe(400);
    const listed = await t.app.inject({ url: "/api/brands" });
    expect(listed.json()).toContainEqual(expect.objectContaining({ name: "Logitech G" }));
  });

  it("name products, which keep a brand from being deleted until they name another", async () => {
    const brand = (await call("POST", "/api/brands", { name: `Dell ${++serial}` })).json<{ id: number }>();
    const { product, category } = await newCategoryProduct();
    const body = {
      title: product.title,
      name: "laptop",
      price: 999,
      shippingCost: 0,
      description: "A laptop",
      stock: 5,
      categories: [category],
    };
    const named = await call("PUT", `/api/products/${product.id}`, { ...body, brandId: brand.id });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json<Product>().brand).toMatchObject({ id: brand.id });
    expect(fieldOf(await call("PUT", `/api/products/${product.id}`, { ...body, brandId: 999_999 }))).toBe(
      "brandId",
    );

    const refused = await call("DELETE", `/api/brands/${brand.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: "1 products are of this brand: give them another brand first",
    });
    await call("PUT", `/api/products/${product.id}`, { ...body, brandId: null });
    expect((await call("DELETE", `/api/brands/${brand.id}`)).statusCode).toBe(200);
  });
});

describe("attributes and specifications", () => {
  it("define a category's specifications, which products fill by type, shown with their units", async () => {
    const { product, categoryId, category } = await newCategoryProduct();
    const define = (payload: object) => call("POST", "/api/attributes", { categoryId, ...payload });
    const ram = await define({
      key: "ram_gb",
      label: "RAM",
      type: "number",
      unit: "GB",
      betterWhen: "higher",
    });
    expect(ram.statusCode, ram.body).toBe(201);
    expect(
      (await define({ key: "panel", label: "Panel", type: "enum", enumValues: ["IPS", "OLED"] })).statusCode,
    ).toBe(201);
    expect(fieldOf(await define({ key: "ram_gb", label: "RAM again", type: "number" }))).toBe("key");
    expect(fieldOf(await define({ key: "Bad Key", label: "x", type: "text" }))).toBe("key");
    expect(fieldOf(await define({ key: "colour", label: "Colour", type: "enum" }))).toBe("enumValues");
    expect((await t.app.inject({ url: `/api/attributes?categoryId=${categoryId}` })).json()).toEqual([
      expect.objectContaining({ key: "ram_gb", unit: "GB", betterWhen: "higher" }),
      expect.objectContaining({ key: "panel", enumValues: ["IPS", "OLED"], unit: null }),
    ]);

    const body = {
      title: product.title,
      name: "laptop",
      price: 999,
      shippingCost: 0,
      description: "A laptop",
      stock: 5,
      categories: [category],
    };
    const filled = await call("PUT", `/api/products/${product.id}`, {
      ...body,
      specs: { ram_gb: "32", panel: "oled" },
    });
    expect(filled.statusCode, filled.body).toBe(200);
    expect(filled.json<Product>().specs).toEqual([
      { key: "ram_gb", label: "RAM", value: 32, unit: "GB" },
      { key: "panel", label: "Panel", value: "OLED", unit: "" },
    ]);
    expect(
      fieldOf(await call("PUT", `/api/products/${product.id}`, { ...body, specs: { ram_gb: "lots" } })),
    ).toBe("specs.ram_gb");
    expect(
      fieldOf(await call("PUT", `/api/products/${product.id}`, { ...body, specs: { panel: "CRT" } })),
    ).toBe("specs.panel");
    expect(fieldOf(await call("PUT", `/api/products/${product.id}`, { ...body, specs: { dpi: 800 } }))).toBe(
      "specs.dpi",
    );
    // Saved without specs: they stay; null removes one.
    expect((await call("PUT", `/api/products/${product.id}`, body)).json<Product>().specs).toHaveLength(2);
    const removed = await call("PUT", `/api/products/${product.id}`, { ...body, specs: { panel: null } });
    expect(removed.json<Product>().specs.map((spec) => spec.key)).toEqual(["ram_gb"]);
  });
});

describe("options and variants", () => {
  it("saves a 2×2 grid, sums its stock and lists its lowest price, and retires what a later grid drops", async () => {
    const { product } = await newCategoryProduct();
    const options = [
      { name: "Colour", values: ["Black", "White"] },
      { name: "Memory", values: ["16 GB", "32 GB"] },
    ];
    const grid = options[0]!.values.flatMap((colour, c) =>
      options[1]!.values.map((memory, m) => ({
        sku: `LAP-${product.id}-${c}${m}`,
        options: { Colour: colour, Memory: memory },
        price: m === 0 ? "999.00" : "1199.50",
        stock: String(c + m + 1),
      })),
    );
    const saved = await call("PUT", `/api/products/${product.id}/variants`, { options, variants: grid });
    expect(saved.statusCode, saved.body).toBe(200);
    const shown = saved.json<Product>();
    expect(shown).toMatchObject({ price: 999, stock: 1 + 2 + 2 + 3, options });
    expect(shown.variants.map((variant) => variant.sku)).toEqual(grid.map((variant) => variant.sku));

    // The next grid keeps three by id, drops one, and changes a price.
    const kept = shown.variants.slice(0, 3).map((variant, index) => ({
      id: variant.id,
      sku: variant.sku,
      options: variant.options,
      price: index === 0 ? 899 : variant.price,
      stock: variant.stock,
    }));
    const next = await call("PUT", `/api/products/${product.id}/variants`, { options, variants: kept });
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json<Product>()).toMatchObject({ price: 899, stock: 1 + 2 + 2 });
    const retire = await call("DELETE", `/api/products/${product.id}/variants/${kept[0]!.id}`);
    expect(retire.statusCode, retire.body).toBe(200);
    expect(retire.json<Product>().variants).toHaveLength(2);
  });

  it("names the field of a grid that can't be saved", async () => {
    const { product } = await newCategoryProduct();
    const options = [{ name: "Colour", values: ["Black", "White"] }];
    const put = (variants: object[], withOptions = options) =>
      call("PUT", `/api/products/${product.id}/variants`, { options: withOptions, variants });
    const black = { sku: `M-${product.id}-B`, options: { Colour: "Black" }, price: 10, stock: 1 };
    expect(fieldOf(await put([black, { ...black, sku: "OTHER" }]))).toBe("variants.1.options");
    expect(fieldOf(await put([black, { ...black, options: { Colour: "White" } }]))).toBe("variants.1.sku");
    expect(fieldOf(await put([{ ...black, options: { Colour: "Red" } }]))).toBe("variants.0.options");
    expect(fieldOf(await put([{ ...black, sku: "P1" }]))).toBe("variants.0.sku");
    expect(fieldOf(await put([black], [{ name: "Colour", values: ["Black", "black"] }]))).toBe("options");
    expect(fieldOf(await put([{ ...black, stock: -1 }]))).toBe("variants.0.stock");
    expect((await put([black], options)).statusCode).toBe(200);
    const only = (await t.app.inject({ url: `/api/products/${product.id}` })).json<Product>().variants[0]!;
    expect((await call("DELETE", `/api/products/${product.id}/variants/${only.id}`)).statusCode).toBe(409);
    expect(
      (await call("PUT", `/api/products/${product.id}/variants`, { options, variants: [black] }, shopper))
        .statusCode,
    ).toBe(403);
  });
});

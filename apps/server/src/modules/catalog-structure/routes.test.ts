import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "@voltio/domain/catalog";
import { productVariants, products, stockAlerts } from "../../db/schema";
import pg from "pg";
import { createTestApp, type TestContext } from "../../../test/app";
import { testDatabaseKind } from "../../../test/database";
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

/** A laptop in a category of its own, and the body the admin form sends for it (PUT /products/:id). */
async function newCategoryProduct() {
  const category = `Laptops ${++serial}`;
  const body = {
    title: `Laptop ${serial}`,
    name: "laptop",
    price: 999,
    shippingCost: 0,
    description: "A laptop",
    stock: 5,
    categories: [category],
  };
  const made = await call("POST", "/api/products", body);
  expect(made.statusCode, made.body).toBe(201);
  const product = made.json<Product & { categories: { id: number }[] }>();
  return { product, categoryId: product.categories[0]!.id, category, body };
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
    const { product, body } = await newCategoryProduct();
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

describe("brand logos", () => {
  it("are pictures as products take them: an http(s) address or an uploaded image; empty is none", async () => {
    const logo = (value: unknown) => call("POST", "/api/brands", { name: `Asus ${++serial}`, logo: value });
    const uploaded = await logo("/uploads/asus.webp");
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toMatchObject({ logo: "/uploads/asus.webp" });
    expect((await logo("https://cdn.example/asus.png")).json()).toMatchObject({
      logo: "https://cdn.example/asus.png",
    });
    expect((await logo("")).json()).toMatchObject({ logo: null });
    for (const refused of ["//evil.example/x.png", "javascript:alert(1)", "/uploads/../secret.png", 7]) {
      const reply = await logo(refused);
      expect(reply.statusCode, String(refused)).toBe(400);
      expect(fieldOf(reply)).toBe("logo");
    }
    const id = uploaded.json<{ id: number }>().id;
    const renamed = await call("PUT", `/api/brands/${id}`, { name: "Asus ROG", logo: null });
    expect(renamed.json()).toMatchObject({ name: "Asus ROG", slug: "asus-rog", logo: null });
  });
});

describe("attributes and specifications", () => {
  it("define a category's specifications, which products fill by type, shown with their units", async () => {
    const { product, categoryId, body } = await newCategoryProduct();
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

describe("the product row follows its live variants", () => {
  /** What listings read (the product row) beside what its live variants add up to. */
  async function rowAndVariants(productId: number) {
    const [row] = await t.database.db
      .select({ stock: products.stock, priceCents: products.priceCents })
      .from(products)
      .where(eq(products.id, productId));
    const [sums] = await t.database.db
      .select({
        stock: sql<number>`sum(${productVariants.stock})::int`.mapWith(Number),
        priceCents: sql<number>`min(${productVariants.priceCents})`.mapWith(Number),
        live: sql<number>`count(*)::int`.mapWith(Number),
      })
      .from(productVariants)
      .where(and(eq(productVariants.productId, productId), isNull(productVariants.retiredAt)));
    return { row, sums };
  }

  it("stock the sum, price the lowest, through grids, retirements and back to no options", async () => {
    const { product, category } = await newCategoryProduct();
    const options = [{ name: "Colour", values: ["Black", "White", "Red"] }];
    const grid = options[0]!.values.map((colour, index) => ({
      sku: `ROW-${product.id}-${colour}`,
      options: { Colour: colour },
      price: [49.99, 39.5, 59][index],
      stock: [3, 0, 7][index],
    }));
    const saved = await call("PUT", `/api/products/${product.id}/variants`, { options, variants: grid });
    expect(saved.statusCode, saved.body).toBe(200);
    let state = await rowAndVariants(product.id);
    expect(state.row).toEqual({ stock: 10, priceCents: 3950 });
    expect(state.sums).toEqual({ stock: 10, priceCents: 3950, live: 3 });

    // Retiring the cheapest lifts the lowest price; its stock leaves the sum.
    const white = saved.json<Product>().variants.find((variant) => variant.options.Colour === "White")!;
    expect((await call("DELETE", `/api/products/${product.id}/variants/${white.id}`)).statusCode).toBe(200);
    state = await rowAndVariants(product.id);
    expect(state.row).toEqual({ stock: 10, priceCents: 4999 });
    expect(state.sums).toMatchObject({ stock: 10, priceCents: 4999, live: 2 });

    // The product form can't move a product sold in variants' price or stock.
    const body = {
      title: product.title,
      name: "laptop",
      price: 1,
      shippingCost: 0,
      description: "A laptop",
      stock: 1,
      categories: [category],
    };
    expect((await call("PUT", `/api/products/${product.id}`, body)).json<Product>()).toMatchObject({
      price: 49.99,
      stock: 10,
    });

    // Back to no options: one live variant with no options, which the product form then moves again.
    const single = await call("PUT", `/api/products/${product.id}/variants`, {
      options: [],
      variants: [{ sku: `ROW-${product.id}`, options: {}, price: 45, stock: 4 }],
    });
    expect(single.statusCode, single.body).toBe(200);
    expect(single.json<Product>()).toMatchObject({ options: [], price: 45, stock: 4 });
    expect(single.json<Product>().variants).toEqual([expect.objectContaining({ options: {}, stock: 4 })]);
    const edited = await call("PUT", `/api/products/${product.id}`, { ...body, price: 44, stock: 6 });
    expect(edited.json<Product>()).toMatchObject({ price: 44, stock: 6 });
    expect(edited.json<Product>().variants).toEqual([expect.objectContaining({ price: 44, stock: 6 })]);
    state = await rowAndVariants(product.id);
    expect(state.sums).toEqual({ stock: 6, priceCents: 4400, live: 1 });
    // The retired ones are kept (orders point at them), not deleted.
    const all = await t.database.db
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.productId, product.id));
    expect(all.length).toBeGreaterThanOrEqual(4);
  });

  it("a variant's own pictures: given replace, absent keep, [] remove; a bad one names its field", async () => {
    const { product, category } = await newCategoryProduct();
    const options = [{ name: "Colour", values: ["Black", "White"] }];
    const variant = (colour: string, extra: object = {}) => ({
      sku: `PIC-${product.id}-${colour}`,
      options: { Colour: colour },
      price: 20,
      stock: 1,
      ...extra,
    });
    const put = (variants: object[]) =>
      call("PUT", `/api/products/${product.id}/variants`, { options, variants });
    const saved = await put([
      variant("Black", { images: ["/uploads/black-1.webp", "https://img.example/black-2.png"] }),
      variant("White"),
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    const [black, white] = saved.json<Product>().variants;
    expect(black!.images.map((image) => image.url)).toEqual([
      "/uploads/black-1.webp",
      "https://img.example/black-2.png",
    ]);
    expect(white!.images).toEqual([]);
    // The product's own pictures stay its own.
    expect(saved.json<Product>().images.map((image) => image.url)).not.toContain("/uploads/black-1.webp");

    const kept = await put([
      { ...variant("Black"), id: black!.id },
      { ...variant("White", { images: [{ url: "/uploads/white.webp", altText: "x" }] }), id: white!.id },
    ]);
    expect(kept.json<Product>().variants.map((one) => one.images.length)).toEqual([2, 1]);
    const cleared = await put([
      { ...variant("Black", { images: [] }), id: black!.id },
      { ...variant("White"), id: white!.id },
    ]);
    expect(cleared.json<Product>().variants.map((one) => one.images.length)).toEqual([0, 1]);

    // The product form rewrites the product's own pictures without touching its variants'.
    const form = await call("PUT", `/api/products/${product.id}`, {
      title: product.title,
      name: "laptop",
      price: 20,
      shippingCost: 0,
      description: "A laptop",
      stock: 1,
      categories: [category],
      images: ["/uploads/a.webp", "/uploads/b.webp", "/uploads/c.webp"],
    });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json<Product>().images).toHaveLength(3);
    expect(form.json<Product>().variants.map((one) => one.images.length)).toEqual([0, 1]);

    const bad = await put([variant("Black", { images: ["//evil.example/x.png"] })]);
    expect(bad.statusCode).toBe(400);
    expect(fieldOf(bad)).toBe("variants.0.images.0");
  });

  it("a grid that restocks a sold-out variant answers its back-in-stock requests before replying", async () => {
    const { product } = await newCategoryProduct();
    const options = [{ name: "Colour", values: ["Black", "White"] }];
    const grid = (whiteStock: number, ids: number[] = []) =>
      call("PUT", `/api/products/${product.id}/variants`, {
        options,
        variants: ["Black", "White"].map((colour, index) => ({
          ...(ids[index] ? { id: ids[index] } : {}),
          sku: `ALERT-${product.id}-${colour}`,
          options: { Colour: colour },
          price: 30,
          stock: colour === "White" ? whiteStock : 2,
        })),
      });
    const saved = (await grid(0)).json<Product>();
    const ids = saved.variants.map((variant) => variant.id);
    const asked = await t.app.inject({
      method: "PUT",
      url: `/api/product/${product.id}/stock-alert?variantId=${ids[1]}`,
      headers: shopper,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const alertOf = async () =>
      (await t.database.db.select().from(stockAlerts).where(eq(stockAlerts.productId, product.id)))[0]!;
    expect((await alertOf()).notifiedAt).toBeNull();
    expect((await grid(3, ids)).statusCode).toBe(200);
    expect(await alertOf()).toMatchObject({ variantId: ids[1], notifiedAt: expect.any(Date) });
  });
});

describe.runIf(testDatabaseKind() === "postgres")("two admins saving at once", () => {
  it("the one whose brand name the index refuses gets the 409 the check gives, not a 500", async () => {
    const name = `Race ${++serial}`;
    const other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
    try {
      // The other admin's brand is written but not committed: the request's check can't see it yet.
      await other.query("begin");
      await other.query("insert into brands (name, slug) values ($1, $2)", [name, `race-${serial}`]);
      const reply = call("POST", "/api/brands", { name: name.toUpperCase(), slug: `other-${serial}` });
      await expect
        .poll(
          async () =>
            (
              await other.query(
                "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
              )
            ).rows[0].n,
          { timeout: 10_000 },
        )
        .toBe(1);
      await other.query("commit");
      const refused = await reply;
      expect(refused.statusCode, refused.body).toBe(409);
      expect(fieldOf(refused)).toBe("name");
    } finally {
      await other.end();
    }
  });
});

import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FacetValue, ProductList } from "@voltio/domain/catalog";
import {
  attributes,
  brands,
  categories,
  productCategories,
  productSpecs,
  productVariants,
  products,
} from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";

/**
 * Facet filters and counts (issue 41, docs/product-rules.md §2.11) on a catalogue of the test's own: two
 * categories (notebooks with RAM and a panel, mice with a connection and DPI), two brands, a mouse sold in
 * two colours. Replies are not cached (as in the uncached benchmark) but counts are, as in production: they
 * must follow writes made by SQL by hand.
 */
let t: TestContext;
let notebooks: number;
let mice: number;
const ids: Record<string, number> = {};

const list = async (query: string) => {
  const reply = await t.app.inject({ url: `/api/products?${query}` });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<ProductList>();
};
const titles = (reply: ProductList) => reply.products.map((product) => product.title).sort();
const counts = (values: FacetValue[] | undefined) =>
  Object.fromEntries((values ?? []).map(({ value, count }) => [value, count]));

beforeAll(async () => {
  t = await createTestApp({ contents: "empty", env: { CATALOG_CACHE_TTL_SECONDS: "0" } });
  const { db } = t.database;
  [notebooks, mice] = (
    await db
      .insert(categories)
      .values([{ name: "Notebooks" }, { name: "Mice" }])
      .returning({ id: categories.id })
  ).map((row) => row.id) as [number, number];
  const [acme, bolt] = (
    await db
      .insert(brands)
      .values([
        { name: "Acme", slug: "acme" },
        { name: "Bolt Labs", slug: "bolt" },
      ])
      .returning({ id: brands.id })
  ).map((row) => row.id) as [number, number];
  const attribute = Object.fromEntries(
    (
      await db
        .insert(attributes)
        .values([
          { categoryId: notebooks, key: "ram_gb", label: "RAM", type: "number", unit: "GB" },
          {
            categoryId: notebooks,
            key: "panel",
            label: "Panel",
            type: "enum",
            enumValues: ["IPS", "OLED"],
          },
          {
            categoryId: mice,
            key: "connection",
            label: "Connection",
            type: "enum",
            enumValues: ["Wired", "Wireless"],
          },
          { categoryId: mice, key: "dpi", label: "Sensitivity", type: "number", unit: "DPI" },
        ])
        .returning({ id: attributes.id, key: attributes.key })
    ).map((row) => [row.key, row.id]),
  ) as Record<string, number>;
  const catalogue = [
    {
      title: "Acme Book 16",
      brandId: acme,
      category: notebooks,
      stock: 5,
      specs: { ram_gb: 16, panel: "IPS" },
    },
    {
      title: "Acme Book Pro",
      brandId: acme,
      category: notebooks,
      stock: 5,
      specs: { ram_gb: 32, panel: "OLED" },
    },
    {
      title: "Bolt Slate",
      brandId: bolt,
      category: notebooks,
      stock: 5,
      specs: { ram_gb: 32, panel: "IPS" },
    },
    { title: "Bolt Mini", brandId: bolt, category: notebooks, stock: 0, specs: { ram_gb: 8, panel: "OLED" } },
    {
      title: "Acme Glide Mouse",
      brandId: acme,
      category: mice,
      stock: 9,
      specs: { connection: "Wireless", dpi: 1600 },
    },
    {
      title: "Bolt Click Mouse",
      brandId: bolt,
      category: mice,
      stock: 9,
      specs: { connection: "Wired", dpi: 800 },
    },
  ];
  for (const [index, item] of catalogue.entries()) {
    const [row] = await db
      .insert(products)
      .values({
        title: item.title,
        name: item.title,
        priceCents: 10_000 + index * 1000,
        stock: item.stock,
        brandId: item.brandId,
      })
      .returning({ id: products.id });
    ids[item.title] = row!.id;
    await db.insert(productCategories).values({ productId: row!.id, categoryId: item.category });
    await db.insert(productSpecs).values(
      Object.entries(item.specs).map(([key, value]) => ({
        productId: row!.id,
        attributeId: attribute[key]!,
        ...(typeof value === "number" ? { numberValue: value } : { textValue: value }),
      })),
    );
  }
  // The Glide is sold in black and white: its default variant gives way to two.
  const glide = ids["Acme Glide Mouse"]!;
  await db
    .update(products)
    .set({ options: [{ name: "Colour", values: ["Black", "White"] }] })
    .where(eq(products.id, glide));
  await db.insert(productVariants).values(
    ["Black", "White"].map((colour, position) => ({
      productId: glide,
      sku: `GLIDE-${colour}`,
      options: { Colour: colour },
      priceCents: 4000,
      stock: 4,
      position,
    })),
  );
  await db
    .update(productVariants)
    .set({ retiredAt: new Date() })
    .where(and(eq(productVariants.productId, glide), eq(productVariants.sku, `P${glide}`)));
});
afterAll(() => t.close());

describe("facet filters", () => {
  it("take any of a key's values, every key, number ranges and brands (any of them)", async () => {
    const base = `categoryId=${notebooks}&limit=50`;
    expect(titles(await list(`${base}&brand=acme`))).toEqual(["Acme Book 16", "Acme Book Pro"]);
    expect((await list(`${base}&brand=acme&brand=bolt`)).total).toBe(3);
    expect((await list(`${base}&spec.panel=IPS&spec.panel=OLED`)).total).toBe(3);
    expect(titles(await list(`${base}&spec.ram_gb.min=16&spec.panel=ips`))).toEqual([
      "Acme Book 16",
      "Bolt Slate",
    ]);
    // Canonical numbers as typed ("32.0"), a range closed at both ends.
    expect(titles(await list(`${base}&spec.ram_gb.min=32.0&spec.ram_gb.max=32`))).toEqual([
      "Acme Book Pro",
      "Bolt Slate",
    ]);
    expect(titles(await list(`spec.ram_gb=32&brand=bolt`))).toEqual(["Bolt Slate"]);
    expect(titles(await list(`spec.connection=Wireless&inStock=true`))).toEqual(["Acme Glide Mouse"]);
  });

  it("page and sort the matches (kept by filters and order), the total counting them all", async () => {
    const base = `categoryId=${notebooks}&brand=acme&brand=bolt&limit=1`;
    const pages = async (order: string) =>
      Promise.all([1, 2, 3, 4].map(async (offset) => list(`${base}&order=${order}&offset=${offset}`)));
    const dearestFirst = await pages("DESC");
    expect(dearestFirst.map((reply) => reply.products[0]?.title)).toEqual([
      "Bolt Slate",
      "Acme Book Pro",
      "Acme Book 16",
      undefined,
    ]);
    expect(dearestFirst.map((reply) => [reply.total, reply.totalPages])).toEqual(Array(4).fill([3, 3]));
    expect((await pages("ASC")).map((reply) => reply.products[0]?.title)).toEqual([
      "Acme Book 16",
      "Acme Book Pro",
      "Bolt Slate",
      undefined,
    ]);
  });

  it("answer 400 naming the parameter for an unknown key or a bad number", async () => {
    for (const [query, field] of [
      ["spec.nope=1", "spec.nope"],
      ["spec.dpi.max=fast", "spec.dpi.max"],
      ["spec.dpi.min=1e3", "spec.dpi.min"],
      ["maxStock=-1", "maxStock"],
      ["facets=maybe", "facets"],
    ] as const) {
      const reply = await t.app.inject({ url: `/api/products?${query}` });
      expect(reply.statusCode, query).toBe(400);
      expect(reply.json<{ details: { field: string }[] }>().details[0]!.field, query).toBe(field);
    }
  });
});

describe("search over brands, specifications and variants", () => {
  it("finds '32gb' in a RAM of 32 GB, a brand by name and a variant by its colour", async () => {
    expect(titles(await list("search=32gb"))).toEqual(["Acme Book Pro", "Bolt Slate"]);
    expect(titles(await list("search=bolt labs"))).toEqual(["Bolt Click Mouse", "Bolt Slate"]);
    const mouse = await list("search=white wireless mouse");
    expect(mouse.products[0]?.title).toBe("Acme Glide Mouse");
  });
});

describe("facet counts", () => {
  it("count each facet under every other filter, the category's attributes only; facets=1 as the contract writes it", async () => {
    const reply = await list(`categoryId=${notebooks}&brand=acme&spec.panel=IPS&facets=1`);
    expect(titles(reply)).toEqual(["Acme Book 16"]);
    // Brands under the panel filter alone (the Bolt Mini is sold out: not in the public listing).
    expect(reply.facets!.brand).toEqual([
      { value: "acme", label: "Acme", count: 1 },
      { value: "bolt", label: "Bolt Labs", count: 1 },
    ]);
    // Panels under the brand filter alone; RAM under both.
    expect(counts(reply.facets!.panel)).toEqual({ IPS: 1, OLED: 1 });
    expect(reply.facets!.ram_gb).toEqual([{ value: "16", label: "16 GB", count: 1 }]);
    expect(reply.facetAttributes!.map((attribute) => attribute.key).sort()).toEqual(["panel", "ram_gb"]);
    expect(reply.facets).not.toHaveProperty("dpi");
    expect(reply.facets!.availability).toEqual([{ value: "inStock", label: "In stock", count: 1 }]);
    expect(await list(`categoryId=${notebooks}&brand=acme&spec.panel=IPS&facets=true`)).toEqual(reply);
  });

  it("follow a specification, a brand and stock changed by SQL by hand (counts are cached)", async () => {
    const query = `categoryId=${notebooks}&facets=1`;
    const ramCounts = async () => counts((await list(query)).facets!.ram_gb);
    expect(await ramCounts()).toEqual({ "16": 1, "32": 2 });
    const { db } = t.database;
    await db
      .update(productSpecs)
      .set({ numberValue: 64 })
      .where(and(eq(productSpecs.productId, ids["Bolt Slate"]!), isNotNull(productSpecs.numberValue)));
    await expect.poll(ramCounts, { timeout: 3000 }).toEqual({ "16": 1, "32": 1, "64": 1 });

    const brandCounts = async () => counts((await list(query)).facets!.brand);
    expect(await brandCounts()).toEqual({ acme: 2, bolt: 1 });
    await db.execute(sql`update products set stock = 0 where id = ${ids["Acme Book Pro"]!}`);
    await expect.poll(brandCounts, { timeout: 3000 }).toEqual({ acme: 1, bolt: 1 });
    const [bolt] = await db.select({ id: brands.id }).from(brands).where(eq(brands.slug, "bolt"));
    await db
      .update(products)
      .set({ brandId: bolt!.id })
      .where(inArray(products.id, [ids["Acme Book 16"]!]));
    await expect.poll(brandCounts, { timeout: 3000 }).toEqual({ bolt: 2 });
  });
});

describe("number facets with many values", () => {
  it("count them in ranges of about as many products each, which filter as spec.<key>=<from>..<to>", async () => {
    const { db } = t.database;
    const [dpi] = await db.select({ id: attributes.id }).from(attributes).where(eq(attributes.key, "dpi"));
    // Twelve more mice: 100, 200 … 1200 DPI, beside the Glide's 1600 and the Click's 800.
    for (let n = 1; n <= 12; n++) {
      const [row] = await db
        .insert(products)
        .values({ title: `Sensor ${n}`, name: `Sensor ${n}`, priceCents: 1000, stock: 3 })
        .returning({ id: products.id });
      await db.insert(productCategories).values({ productId: row!.id, categoryId: mice });
      await db
        .insert(productSpecs)
        .values({ productId: row!.id, attributeId: dpi!.id, numberValue: n * 100 });
    }
    const ranges = async () => (await list(`categoryId=${mice}&facets=1`)).facets!.dpi!;
    await expect.poll(async () => (await ranges()).reduce((sum, range) => sum + range.count, 0)).toBe(14);
    const facet = await ranges();
    expect(facet.length).toBeLessThanOrEqual(5);
    expect(facet[0]).toEqual({ value: "100..300", label: "100–300 DPI", count: 3 });
    expect(facet.at(-1)!.value).toMatch(/\.\.1600$/);
    const middle = facet[1]!;
    const filtered = await list(`categoryId=${mice}&spec.dpi=${middle.value}&limit=50`);
    expect(filtered.total).toBe(middle.count);
    expect((await list(`categoryId=${mice}&spec.dpi=${facet[0]!.value}&spec.dpi=1600`)).total).toBe(4);
  });
});

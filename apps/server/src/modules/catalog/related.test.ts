import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductList } from "@voltio/domain/catalog";
import { attributes, brands, categories, productCategories, productSpecs, products } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";

/**
 * GET /products/:id/related on a catalogue of the test's own (issue 41 point 4): the narrowest shared
 * category first, then the same brand, then shared specification values; never a product of no shared
 * category, nor one sold out.
 */
let t: TestContext;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ contents: "empty" });
  const { db } = t.database;
  const [peripheral, mice, keyboards, cameras] = (
    await db
      .insert(categories)
      .values([{ name: "Peripherals" }, { name: "Mice" }, { name: "Keyboards" }, { name: "Cameras" }])
      .returning({ id: categories.id })
  ).map((row) => row.id) as [number, number, number, number];
  const [acme, bolt] = (
    await db
      .insert(brands)
      .values([
        { name: "Acme", slug: "acme" },
        { name: "Bolt", slug: "bolt" },
      ])
      .returning({ id: brands.id })
  ).map((row) => row.id) as [number, number];
  const [dpi] = await db
    .insert(attributes)
    .values({ categoryId: mice, key: "dpi", label: "Sensitivity", type: "number", unit: "DPI" })
    .returning({ id: attributes.id });
  // Ids in the order of the list: a ranking by id alone would put the keyboard and the camera first.
  const catalogue = [
    { title: "Acme keyboard", brandId: acme, categories: [peripheral, keyboards], stock: 5 },
    { title: "Acme camera", brandId: acme, categories: [cameras], stock: 5 },
    { title: "Bolt mouse 800", brandId: bolt, categories: [peripheral, mice], stock: 5, dpi: 800 },
    { title: "Bolt mouse 1600", brandId: bolt, categories: [peripheral, mice], stock: 5, dpi: 1600 },
    { title: "Acme mouse sold out", brandId: acme, categories: [peripheral, mice], stock: 0 },
    { title: "Acme mouse", brandId: acme, categories: [peripheral, mice], stock: 5, dpi: 1600 },
    { title: "Acme mouse pro", brandId: acme, categories: [peripheral, mice], stock: 5, dpi: 3200 },
  ];
  for (const item of catalogue) {
    const [row] = await db
      .insert(products)
      .values({
        title: item.title,
        name: item.title,
        priceCents: 2000,
        stock: item.stock,
        brandId: item.brandId,
      })
      .returning({ id: products.id });
    ids[item.title] = row!.id;
    await db
      .insert(productCategories)
      .values(item.categories.map((categoryId) => ({ productId: row!.id, categoryId })));
    if (item.dpi)
      await db
        .insert(productSpecs)
        .values({ productId: row!.id, attributeId: dpi!.id, numberValue: item.dpi });
  }
});
afterAll(() => t.close());

const related = async (title: string) => {
  const reply = await t.app.inject({ url: `/api/products/${ids[title]}/related` });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<Pick<ProductList, "products">>().products.map((product) => product.title);
};

describe("related products", () => {
  it("rank mice of the brand, then mice alike in specifications, then the brand's other peripherals", async () => {
    expect(await related("Acme mouse")).toEqual([
      "Acme mouse pro",
      "Bolt mouse 1600",
      "Bolt mouse 800",
      "Acme keyboard",
    ]);
  });

  it("give a keyboard the mice it shares a category with, its brand's first, and nothing of another category", async () => {
    expect(await related("Acme keyboard")).toEqual([
      "Acme mouse",
      "Acme mouse pro",
      "Bolt mouse 800",
      "Bolt mouse 1600",
    ]);
    expect(await related("Acme camera")).toEqual([]);
  });
});

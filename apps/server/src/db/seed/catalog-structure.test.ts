import { asc, count, eq, isNull, max } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCents } from "@voltio/domain/money";
import { createTestDatabase, TEST_PASSWORD_HASH_COST } from "../../../test/database";
import { setPasswordHashCost } from "../../modules/auth/password";
import type { Database } from "../client";
import { attributes, brands, categories, productSpecs, productVariants, products } from "../schema";
import { readCatalogSpecs } from "./catalog-structure";
import { readCatalog, seedDemoStore } from "./demo-store";

/**
 * The demo catalogue with brands, specifications and variants (issue 41), seeded into an empty database: its
 * 59 products, their ids and SPEC's listings as they were (titles, prices, stock), every product with a
 * brand and its specifications, a few sold in variants at their listed lowest price and stock.
 */
describe("the demo catalogue's structure", () => {
  let database: Database;
  const catalog = readCatalog();
  const data = readCatalogSpecs();

  beforeAll(async () => {
    setPasswordHashCost(TEST_PASSWORD_HASH_COST);
    database = await createTestDatabase("empty");
    expect(await seedDemoStore(database.db)).toBe(true);
  });
  afterAll(() => database.close());

  it("keeps the 59 products, their ids, titles, prices and stock", async () => {
    const rows = await database.db
      .select({
        id: products.id,
        title: products.title,
        priceCents: products.priceCents,
        stock: products.stock,
      })
      .from(products)
      .orderBy(asc(products.id));
    expect(rows).toHaveLength(59);
    expect(rows).toEqual(
      catalog.products.map((product, index) => ({
        id: index + 1,
        title: product.title.trim(),
        priceCents: toCents(product.price),
        stock: product.stock,
      })),
    );
  });

  it("gives every product its brand and the specifications catalog-specs.json writes", async () => {
    const branded = await database.db
      .select({ id: products.id, brand: brands.name })
      .from(products)
      .leftJoin(brands, eq(brands.id, products.brandId))
      .orderBy(asc(products.id));
    expect(branded.map((row) => row.brand)).toEqual(
      catalog.products.map((_, index) => data.products[String(index + 1)]!.brand),
    );
    const [logitech] = await database.db.select().from(brands).where(eq(brands.slug, "logitech"));
    expect(logitech?.name).toBe("Logitech");

    const specs = await database.db
      .select({
        productId: productSpecs.productId,
        key: attributes.key,
        numberValue: productSpecs.numberValue,
        textValue: productSpecs.textValue,
      })
      .from(productSpecs)
      .innerJoin(attributes, eq(attributes.id, productSpecs.attributeId));
    for (let id = 1; id <= 59; id++) {
      const given = Object.fromEntries(
        specs
          .filter((spec) => spec.productId === id)
          .map((spec) => [spec.key, spec.numberValue ?? spec.textValue]),
      );
      expect(Object.keys(given).length, `product ${id}`).toBeGreaterThan(0);
      expect(given, `product ${id}`).toEqual(data.products[String(id)]!.specs);
    }
  });

  it("defines each category's attributes, with units and which way is better", async () => {
    const laptops = await database.db
      .select({ key: attributes.key, unit: attributes.unit, betterWhen: attributes.betterWhen })
      .from(attributes)
      .innerJoin(categories, eq(categories.id, attributes.categoryId))
      .where(eq(categories.name, "Computers"))
      .orderBy(asc(attributes.position));
    expect(laptops).toEqual([
      { key: "ram_gb", unit: "GB", betterWhen: "higher" },
      { key: "storage_gb", unit: "GB", betterWhen: "higher" },
      { key: "cpu", unit: "", betterWhen: null },
    ]);
  });

  it("sells a few products in variants at their listed lowest price with every unit, the default variant their first", async () => {
    expect(Object.keys(data.variants).sort()).toEqual(["11", "17", "51", "59"]);
    for (const [position, { options, variants }] of Object.entries(data.variants)) {
      const id = Number(position);
      const rows = await database.db
        .select({
          sku: productVariants.sku,
          options: productVariants.options,
          priceCents: productVariants.priceCents,
          stock: productVariants.stock,
          retiredAt: productVariants.retiredAt,
        })
        .from(productVariants)
        .where(eq(productVariants.productId, id))
        .orderBy(asc(productVariants.position));
      expect(rows).toEqual(
        variants.map((variant) => ({
          sku: variant.sku,
          options: variant.options,
          priceCents: toCents(variant.price),
          stock: variant.stock,
          retiredAt: null,
        })),
      );
      const [product] = await database.db
        .select({ stock: products.stock, priceCents: products.priceCents, options: products.options })
        .from(products)
        .where(eq(products.id, id));
      expect(product!.options).toEqual(options);
      expect(product!.stock).toBe(rows.reduce((sum, variant) => sum + variant.stock, 0));
      expect(product!.priceCents).toBe(Math.min(...rows.map((variant) => variant.priceCents)));
    }
    // No variant row deleted (the default variants became the first ones): the fresh database's variant ids
    // run 1..n without a gap, one row per product sold one way plus each variant product's own.
    const [all] = await database.db
      .select({ n: count(), last: max(productVariants.id) })
      .from(productVariants);
    const extra = Object.values(data.variants).reduce((sum, { variants }) => sum + variants.length - 1, 0);
    expect(all).toEqual({ n: 59 + extra, last: 59 + extra });
  });

  it("keeps every other product sold one way through its default variant P<id>", async () => {
    const single = await database.db
      .select({
        productId: productVariants.productId,
        sku: productVariants.sku,
        options: productVariants.options,
      })
      .from(productVariants)
      .where(isNull(productVariants.retiredAt))
      .orderBy(asc(productVariants.productId));
    const oneWay = single.filter((variant) => !(String(variant.productId) in data.variants));
    expect(oneWay).toHaveLength(59 - Object.keys(data.variants).length);
    for (const variant of oneWay) {
      expect(variant.sku).toBe(`P${variant.productId}`);
      expect(variant.options).toEqual({});
    }
  });

  it("seeds only once: a second run finds data and adds nothing", async () => {
    const counts = async () =>
      Promise.all(
        [products, productVariants, productSpecs, brands, attributes].map(async (table) => {
          const [row] = await database.db.select({ n: count() }).from(table);
          return row!.n;
        }),
      );
    const before = await counts();
    expect(await seedDemoStore(database.db)).toBe(false);
    expect(await counts()).toEqual(before);
  });
});

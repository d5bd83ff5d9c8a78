import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCents } from "@voltio/domain/money";
import { createTestDatabase } from "../../../test/database";
import type { Database } from "../client";
import { brands, productSpecs, productVariants, products } from "../schema";
import { readCatalogSpecs } from "./catalog-structure";
import { readCatalog } from "./demo-store";

/**
 * The demo catalogue with brands, specifications and variants (issue 41): its 59 products, their ids and
 * SPEC's listings as they were (titles, prices, stock), every product with a brand and a specification.
 */
describe("the demo catalogue's structure", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase("demo");
  });
  afterAll(() => database.close());

  it("keeps the 59 products, their ids, titles, prices and stock", async () => {
    const catalog = readCatalog();
    const rows = await database.db
      .select({ id: products.id, title: products.title, priceCents: products.priceCents })
      .from(products)
      .orderBy(asc(products.id));
    expect(rows).toHaveLength(59);
    expect(rows).toEqual(
      catalog.products.map((product, index) => ({
        id: index + 1,
        title: product.title.trim(),
        priceCents: toCents(product.price),
      })),
    );
  });

  it("gives every product a brand and at least one specification", async () => {
    const missing = await database.db
      .select({ id: products.id })
      .from(products)
      .where(
        sql`${products.brandId} is null or not exists (select 1 from ${productSpecs} s where s.product_id = ${products.id})`,
      );
    expect(missing).toEqual([]);
    const [logitech] = await database.db.select().from(brands).where(eq(brands.slug, "logitech"));
    expect(logitech?.name).toBe("Logitech");
  });

  it("sells a few products in variants, listed at their lowest price with every unit", async () => {
    const data = readCatalogSpecs();
    for (const [position, { variants }] of Object.entries(data.variants)) {
      const id = Number(position);
      const live = await database.db
        .select({ options: productVariants.options, stock: productVariants.stock })
        .from(productVariants)
        .where(and(eq(productVariants.productId, id), isNull(productVariants.retiredAt)))
        .orderBy(asc(productVariants.position));
      expect(live.map((variant) => variant.options)).toEqual(variants.map((variant) => variant.options));
      const [product] = await database.db
        .select({ stock: products.stock, priceCents: products.priceCents })
        .from(products)
        .where(eq(products.id, id));
      // What the demo's shopper bought of it came off its first variant.
      expect(product!.stock).toBe(live.reduce((sum, variant) => sum + variant.stock, 0));
      expect(product!.priceCents).toBe(Math.min(...variants.map((variant) => toCents(variant.price))));
    }
  });
});

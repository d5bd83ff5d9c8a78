import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { toCents } from "@voltio/domain/money";
import { parseSpecValue, slugify, type AttributeType, type BetterWhen } from "@voltio/domain/specs";
import {
  optionsProblem,
  variantOptionsProblem,
  type ProductOption,
  type VariantOptions,
} from "@voltio/domain/variants";
import { serverDir } from "../../paths";
import type { Db } from "../client";
import { attributes, brands, productSpecs, productVariants, products } from "../schema";

/**
 * The demo's brands, specifications and variants (issue 41), from catalog-specs.json: the attributes each
 * category defines, each product's brand and the values its description gives, and the variants a few
 * products are sold in (their listed price stays the lowest variant's, their stock the sum).
 */
interface CatalogSpecs {
  attributes: Record<
    string,
    {
      key: string;
      label: string;
      type: AttributeType;
      unit?: string;
      enumValues?: string[];
      filterable?: boolean;
      betterWhen?: BetterWhen;
    }[]
  >;
  products: Record<string, { brand: string; specs: Record<string, number | string> }>;
  variants: Record<
    string,
    {
      options: ProductOption[];
      variants: { sku: string; options: VariantOptions; price: number; stock: number }[];
    }
  >;
}

export function readCatalogSpecs(): CatalogSpecs {
  return JSON.parse(readFileSync(join(serverDir, "src/db/seed/catalog-specs.json"), "utf8")) as CatalogSpecs;
}

/**
 * `productIds[i]` is the id of catalog.json's product i + 1 and `productCategories[i]` its categories' names;
 * `categoryIds` by category name.
 */
export async function seedCatalogStructure(
  tx: Db,
  productIds: number[],
  productCategories: string[][],
  categoryIds: Map<string, number>,
) {
  const data = readCatalogSpecs();
  const defined = await tx
    .insert(attributes)
    .values(
      Object.entries(data.attributes).flatMap(([category, list]) =>
        list.map((attribute, position) => ({
          categoryId: categoryIds.get(category)!,
          key: attribute.key,
          label: attribute.label,
          type: attribute.type,
          unit: attribute.unit ?? "",
          enumValues: attribute.enumValues ?? [],
          filterable: attribute.filterable ?? true,
          betterWhen: attribute.betterWhen ?? null,
          position,
        })),
      ),
    )
    .returning();

  const brandNames = [...new Set(Object.values(data.products).map((product) => product.brand))];
  const brandRows = await tx
    .insert(brands)
    .values(brandNames.map((name) => ({ name, slug: slugify(name) })))
    .returning({ id: brands.id, name: brands.name });
  const brandId = new Map(brandRows.map((brand) => [brand.name, brand.id]));

  const specRows: (typeof productSpecs.$inferInsert)[] = [];
  for (const [position, { brand, specs }] of Object.entries(data.products)) {
    const productId = productIds[Number(position) - 1]!;
    await tx
      .update(products)
      .set({ brandId: brandId.get(brand)! })
      .where(eq(products.id, productId));
    const inCategories = new Set(
      productCategories[Number(position) - 1]!.map((name) => categoryIds.get(name)),
    );
    for (const [key, given] of Object.entries(specs)) {
      // The first of the product's categories' attributes with this key.
      const attribute = defined.find(
        (candidate) => candidate.key === key && inCategories.has(candidate.categoryId),
      );
      if (!attribute) throw new Error(`catalog-specs.json: product ${position} has no attribute ${key}`);
      const parsed = parseSpecValue(attribute, given);
      if ("problem" in parsed)
        throw new Error(`catalog-specs.json: product ${position} ${key} ${parsed.problem}`);
      specRows.push({
        productId,
        attributeId: attribute.id,
        numberValue: typeof parsed.value === "number" ? parsed.value : null,
        textValue: typeof parsed.value === "string" ? parsed.value : null,
      });
    }
  }
  await tx.insert(productSpecs).values(specRows);

  for (const [position, { options, variants }] of Object.entries(data.variants)) {
    const productId = productIds[Number(position) - 1]!;
    const problem =
      optionsProblem(options) ??
      variants.map((variant) => variantOptionsProblem(options, variant.options)).find(Boolean);
    if (problem) throw new Error(`catalog-specs.json: product ${position}'s variants: ${problem}`);
    await tx.update(products).set({ options }).where(eq(products.id, productId));
    // The default variant the database gave the product becomes its first (variants are retired, never
    // deleted); the product's price and stock follow its variants through the database's triggers.
    const row = (variant: (typeof variants)[number], index: number) => ({
      sku: variant.sku,
      options: variant.options,
      priceCents: toCents(variant.price),
      stock: variant.stock,
      position: index,
    });
    const [first, ...others] = variants;
    await tx.update(productVariants).set(row(first!, 0)).where(eq(productVariants.productId, productId));
    if (others.length > 0)
      await tx
        .insert(productVariants)
        .values(others.map((variant, index) => ({ productId, ...row(variant, index + 1) })));
  }
}

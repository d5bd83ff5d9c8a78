import { and, eq, inArray } from "drizzle-orm";
import type { ProductInput } from "@voltio/domain/admin";
import { parseSpecValue } from "@voltio/domain/specs";
import type { Db } from "../../db/client";
import { attributes, brands, productSpecs, products } from "../../db/schema";
import { InvalidInput } from "../../errors";

/**
 * A product's brand and specifications as the admin form (or a CSV row) gives them (issue 41,
 * docs/product-rules.md §2.10): the brand must exist; each value must be of an attribute of the product's
 * categories and of its type (400 `specs.<key>` with the reason); null removes one. Absent fields keep what
 * the product has.
 */
export async function writeBrandAndSpecs(
  tx: Db,
  productId: number,
  input: Pick<ProductInput, "brandId" | "specs">,
  categoryIds: number[],
) {
  if (input.brandId !== undefined) {
    if (input.brandId !== null) {
      const [brand] = await tx.select({ id: brands.id }).from(brands).where(eq(brands.id, input.brandId));
      if (!brand) throw new InvalidInput("brandId", "is not a brand");
    }
    await tx.update(products).set({ brandId: input.brandId }).where(eq(products.id, productId));
  }
  if (input.specs === undefined) return;
  const defined = categoryIds.length
    ? await tx.select().from(attributes).where(inArray(attributes.categoryId, categoryIds))
    : [];
  for (const [key, given] of Object.entries(input.specs)) {
    const attribute = defined.find((candidate) => candidate.key === key);
    if (!attribute) throw new InvalidInput(`specs.${key}`, "is not an attribute of the product's categories");
    const ofProduct = and(eq(productSpecs.productId, productId), eq(productSpecs.attributeId, attribute.id));
    if (given === null) {
      await tx.delete(productSpecs).where(ofProduct);
      continue;
    }
    const parsed = parseSpecValue(attribute, given);
    if ("problem" in parsed) throw new InvalidInput(`specs.${key}`, parsed.problem);
    const value =
      typeof parsed.value === "number"
        ? { numberValue: parsed.value, textValue: null }
        : { numberValue: null, textValue: parsed.value };
    await tx
      .insert(productSpecs)
      .values({ productId, attributeId: attribute.id, ...value })
      .onConflictDoUpdate({ target: [productSpecs.productId, productSpecs.attributeId], set: value });
  }
}

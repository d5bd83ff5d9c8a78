import { and, asc, eq, inArray, isNotNull, isNull, notInArray, sql } from "drizzle-orm";
import type { VariantsInput } from "@voltio/domain/catalog-structure";
import { toCents, toDollars } from "@voltio/domain/money";
import { optionsProblem, sameOptions, variantOptionsProblem } from "@voltio/domain/variants";
import type { Db } from "../../db/client";
import { productImages, productVariants, products } from "../../db/schema";
import { Conflict, InvalidInput, NotFound } from "../../errors";
import { recordChange } from "../audit/service";
import type { Caller } from "../identity/caller";
import { PRODUCT_NOT_FOUND } from "./products";
import { conflictOnRace } from "../catalog-structure/service";

/**
 * A product's options and variants in the back office (issue 41, docs/product-rules.md §7.3.1): the grid
 * is saved whole; variants it no longer lists are retired, never deleted (past orders point at them). The
 * product's row is locked first, then its variants' (ADR 0023); the database keeps the product's price (the
 * lowest) and stock (the sum) in step.
 */

const variantColumns = {
  id: productVariants.id,
  sku: productVariants.sku,
  options: productVariants.options,
  priceCents: productVariants.priceCents,
  stock: productVariants.stock,
  saleEligible: productVariants.saleEligible,
  images: sql<string[]>`(select coalesce(array_agg(i.url order by i.position), '{}')
    from product_images i where i.variant_id = ${productVariants.id})`,
};

async function lockProduct(tx: Db, productId: number) {
  const [product] = await tx
    .select({ id: products.id, options: products.options })
    .from(products)
    .where(and(eq(products.id, productId), isNull(products.deletedAt)))
    .for("update");
  if (!product) throw new NotFound(PRODUCT_NOT_FOUND);
  return product;
}

const liveVariants = (tx: Db, productId: number) =>
  tx
    .select(variantColumns)
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), isNull(productVariants.retiredAt)))
    .orderBy(asc(productVariants.position), asc(productVariants.id))
    .for("update");

const audited = (rows: Awaited<ReturnType<typeof liveVariants>>) =>
  rows.map(({ priceCents, ...row }) => ({ ...row, price: toDollars(priceCents) }));

/** Why the grid can't be saved, as the field and the reason; null when it can. */
function gridProblem(input: VariantsInput): InvalidInput | null {
  const options = optionsProblem(input.options);
  if (options) return new InvalidInput("options", options);
  for (const [index, variant] of input.variants.entries()) {
    const problem = variantOptionsProblem(input.options, variant.options);
    if (problem) return new InvalidInput(`variants.${index}.options`, problem);
    const twin = input.variants.findIndex((other) => sameOptions(other.options, variant.options));
    if (twin !== index)
      return new InvalidInput(`variants.${index}.options`, `is the same as variant ${twin + 1}'s`);
    const sameSku = input.variants.findIndex(
      (other) => other.sku.toLowerCase() === variant.sku.toLowerCase(),
    );
    if (sameSku !== index)
      return new InvalidInput(`variants.${index}.sku`, `is variant ${sameSku + 1}'s SKU too`);
  }
  return null;
}

/**
 * Variants' pictures sit at positions from here up: product_images' positions are unique per product
 * (product_id, position), and the product's own pictures (at most 20) take 0.. when the form rewrites them.
 */
const FIRST_VARIANT_IMAGE_POSITION = 1000;

/** A variant's own pictures, replacing those it had (none: it shows the product's). The product is locked. */
async function writeVariantImages(
  tx: Db,
  productId: number,
  variantId: number,
  variant: VariantsInput["variants"][number],
) {
  await tx.delete(productImages).where(eq(productImages.variantId, variantId));
  if (!variant.images?.length) return;
  const [{ last }] = (await tx
    .select({ last: sql<number | null>`max(${productImages.position})` })
    .from(productImages)
    .where(and(eq(productImages.productId, productId), isNotNull(productImages.variantId)))) as [
    { last: number | null },
  ];
  const first = Math.max(FIRST_VARIANT_IMAGE_POSITION, (last ?? 0) + 1);
  await tx.insert(productImages).values(
    variant.images.map((url, index) => ({
      productId,
      variantId,
      url,
      position: first + index,
      altText: `${Object.values(variant.options).join(" / ") || variant.sku} – picture ${index + 1}`,
    })),
  );
}

/** Another product's grid took one of these SKUs between the check and the write. */
const skuRaces = conflictOnRace({
  product_variants_sku_key: () =>
    new Conflict("Another variant took one of these SKUs meanwhile: save again to see which", {
      field: "variants",
    }),
});

/** PUT /products/:id/variants. */
export async function replaceVariants(db: Db, actor: Caller, productId: number, input: VariantsInput) {
  const problem = gridProblem(input);
  if (problem) throw problem;
  await db
    .transaction(async (tx) => {
      const product = await lockProduct(tx, productId);
      const before = await liveVariants(tx, productId);
      const kept = input.variants.flatMap((variant) => (variant.id === undefined ? [] : [variant.id]));
      const own = kept.length
        ? await tx
            .select({ id: productVariants.id })
            .from(productVariants)
            .where(and(eq(productVariants.productId, productId), inArray(productVariants.id, kept)))
        : [];
      for (const [index, variant] of input.variants.entries())
        if (variant.id !== undefined && !own.some((row) => row.id === variant.id))
          throw new InvalidInput(`variants.${index}.id`, "is not a variant of this product");
      const skus = input.variants.map((variant) => variant.sku);
      const taken = await tx
        .select({ sku: productVariants.sku })
        .from(productVariants)
        .where(
          and(
            inArray(
              sql`lower(${productVariants.sku})`,
              skus.map((sku) => sku.toLowerCase()),
            ),
            kept.length ? notInArray(productVariants.id, kept) : undefined,
          ),
        );
      const clash = input.variants.findIndex((variant) =>
        taken.some((row) => row.sku.toLowerCase() === variant.sku.toLowerCase()),
      );
      if (clash >= 0) throw new InvalidInput(`variants.${clash}.sku`, "is another variant's SKU");

      // Retired first, and the kept ones set aside: the live combinations are unique, and a grid may swap two.
      const now = new Date();
      await tx
        .update(productVariants)
        .set({ retiredAt: now })
        .where(
          and(
            eq(productVariants.productId, productId),
            isNull(productVariants.retiredAt),
            kept.length ? notInArray(productVariants.id, kept) : undefined,
          ),
        );
      if (kept.length)
        await tx
          .update(productVariants)
          .set({
            sku: sql`'~' || ${productVariants.id}`,
            options: sql`jsonb_build_object('~', ${productVariants.id})`,
          })
          .where(inArray(productVariants.id, kept));
      for (const [position, variant] of input.variants.entries()) {
        const values = {
          sku: variant.sku,
          options: variant.options,
          priceCents: toCents(variant.price),
          stock: variant.stock,
          saleEligible: variant.saleEligible,
          position,
          retiredAt: null,
        };
        let variantId = variant.id;
        if (variantId === undefined)
          [{ id: variantId }] = (await tx
            .insert(productVariants)
            .values({ productId, ...values })
            .returning({ id: productVariants.id })) as [{ id: number }];
        else await tx.update(productVariants).set(values).where(eq(productVariants.id, variantId));
        if (variant.images !== undefined) await writeVariantImages(tx, productId, variantId, variant);
      }
      await tx
        .update(products)
        .set({ options: input.options, updatedAt: now })
        .where(eq(products.id, productId));
      await recordChange(tx, actor, "product.variants", productId, {
        before: { options: product.options, variants: audited(before) },
        after: { options: input.options, variants: audited(await liveVariants(tx, productId)) },
      });
    })
    .catch(skuRaces);
}

/** DELETE /products/:id/variants/:variantId: the variant is retired; a product keeps at least one. */
export async function retireVariant(db: Db, actor: Caller, productId: number, variantId: number) {
  await db.transaction(async (tx) => {
    await lockProduct(tx, productId);
    const live = await liveVariants(tx, productId);
    const variant = live.find((row) => row.id === variantId);
    if (!variant) throw new NotFound("Variant Not Found");
    if (live.length === 1)
      throw new Conflict("A product keeps at least one variant: retire the product instead");
    await tx.update(productVariants).set({ retiredAt: new Date() }).where(eq(productVariants.id, variantId));
    await recordChange(tx, actor, "product.variant-retire", productId, {
      before: audited([variant]),
      after: null,
    });
  });
}

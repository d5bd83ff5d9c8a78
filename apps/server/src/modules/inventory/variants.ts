import type { Product } from "@voltio/domain/catalog";
import type { LineVariant } from "@voltio/domain/orders";
import { variantName, type ProductOption, type VariantOptions } from "@voltio/domain/variants";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { productVariants, products } from "../../db/schema";
import { InvalidInput, NotFound } from "../../errors";

/**
 * The variant an order line sells (ADR 0023): the one asked for, which must be the product's; without one
 * (a SPEC client knows only product ids), the product's default: the first live variant with stock, else
 * the first. A product without live variants is a missing product.
 */
export async function chooseVariant(
  tx: Db,
  productId: number,
  variantId?: number,
  notFound = "Product Not Found",
): Promise<number> {
  if (variantId !== undefined) {
    const [own] = await tx
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(and(eq(productVariants.id, variantId), eq(productVariants.productId, productId)));
    if (!own) throw new InvalidInput("variantId", "is not a variant of this product");
    return variantId;
  }
  const [first] = await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), isNull(productVariants.retiredAt)))
    .orderBy(
      desc(sql`${productVariants.stock} > coalesce((select sum(h.units) from stock_holds h
        where h.variant_id = ${productVariants.id} and h.expires_at > now()), 0)`),
      asc(productVariants.position),
      asc(productVariants.id),
    )
    .limit(1);
  if (!first) throw new NotFound(notFound);
  return first.id;
}

/** The variants lines sell, retired ones included (past orders keep naming them), by id. */
export async function lineVariants(db: Db, ids: number[]): Promise<Map<number, LineVariant>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({
      id: productVariants.id,
      sku: productVariants.sku,
      options: productVariants.options,
      title: products.title,
      productOptions: products.options,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(inArray(productVariants.id, unique));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        sku: row.sku,
        options: row.options,
        name: variantName(row.title, row.productOptions, row.options),
      },
    ]),
  );
}

/**
 * What a line of this variant is priced from: the variant's price (the product's for one no longer on sale)
 * and whether the product's and its categories' sales discount it.
 */
export function sellingTerms(
  product: Pick<Product, "price" | "shippingCost" | "sales" | "variants">,
  variantId: number,
) {
  const variant = product.variants.find((candidate) => candidate.id === variantId);
  return {
    price: variant?.price ?? product.price,
    shippingCost: product.shippingCost,
    sales: product.sales,
    saleEligible: variant?.saleEligible ?? true,
  };
}

/**
 * The variant each of a guest's lines means (a browser's lists made before the shopper logged in): the one
 * it names if the product has it live, the product's default if it names none, or nothing (the line is
 * refused as a missing product).
 */
export async function guestLineVariants(
  tx: Db,
  lines: { productId: number; variantId?: number }[],
): Promise<(number | undefined)[]> {
  const productIds = [...new Set(lines.map((line) => line.productId))];
  if (productIds.length === 0) return [];
  const live = await tx
    .select({ id: productVariants.id, productId: productVariants.productId, stock: productVariants.stock })
    .from(productVariants)
    .where(and(inArray(productVariants.productId, productIds), isNull(productVariants.retiredAt)))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
  return lines.map((line) => {
    const own = live.filter((variant) => variant.productId === line.productId);
    if (line.variantId !== undefined) return own.find((variant) => variant.id === line.variantId)?.id;
    return (own.find((variant) => variant.stock > 0) ?? own[0])?.id;
  });
}

/**
 * The columns a query joining products and product_variants selects to title a line by what it sold, and
 * the title they make: "Logitech M720 — Black", the product's title alone for a default variant.
 */
export const variantTitleColumns = {
  title: products.title,
  productOptions: products.options,
  variantOptions: productVariants.options,
};
export const variantTitle = (row: {
  title: string;
  productOptions: ProductOption[];
  variantOptions: VariantOptions;
}) => variantName(row.title, row.productOptions, row.variantOptions);

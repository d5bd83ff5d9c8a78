import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { DEFAULT_PRODUCT_IMAGE, type ProductInput } from "@voltio/domain/admin";
import { toCents, toDollars } from "@voltio/domain/money";
import type { Db } from "../../db/client";
import { categories, productCategories, productImages, products } from "../../db/schema";
import { Conflict, NotFound } from "../../errors";
import { lockStock } from "../inventory/stock";
import { writeBrandAndSpecs } from "./specs";
import type { Caller } from "../identity/caller";
import { categoryIllustrationUrl, kindForCategory } from "../illustrations/svg";
import { recordChange } from "../audit/service";

/**
 * Products in the back office (docs/product-rules.md §1 Admin create/edit product, §10.6; §10): written
 * as the admin form sends them, categories found or created by name, retired rather than deleted so past
 * orders and reviews keep their product. Each change is on the audit log in its own transaction.
 */

export const PRODUCT_NOT_FOUND = "Product Not Found!";

/** A product as the form sends it, pictures resolved: what the audit log keeps before and after a change. */
type ProductRecord = Omit<ProductInput, "images"> & { images: string[] };

/**
 * These categories, in their order, created when new. Names match whatever their case ('mouse' is the
 * existing 'Mouse'); the unique index on lower(name) settles two admins adding the same one at once.
 */
async function findOrCreateCategories(tx: Db, names: string[]): Promise<{ id: number; name: string }[]> {
  const byKey = new Map<string, string>();
  for (const name of names) if (!byKey.has(name.toLowerCase())) byKey.set(name.toLowerCase(), name);
  const find = () =>
    tx
      .select({ id: categories.id, name: categories.name, key: sql<string>`lower(${categories.name})` })
      .from(categories)
      .where(inArray(sql`lower(${categories.name})`, [...byKey.keys()]));
  let found = await find();
  const missing = [...byKey].filter(([key]) => !found.some((row) => row.key === key));
  if (missing.length > 0) {
    await tx
      .insert(categories)
      .values(missing.map(([, name]) => ({ name, image: categoryIllustrationUrl(kindForCategory(name)) })))
      .onConflictDoNothing();
    found = await find();
  }
  return [...byKey.keys()].map((key) => found.find((row) => row.key === key)!);
}

const productColumns = (input: ProductInput) => ({
  title: input.title,
  name: input.name,
  priceCents: toCents(input.price),
  shippingCostCents: toCents(input.shippingCost),
  description: input.description,
});

/** The product's pictures (the placeholder when none was given) and categories, replacing any it had. */
async function writeRelations(tx: Db, productId: number, input: ProductInput): Promise<ProductRecord> {
  const images = input.images.length > 0 ? input.images : [DEFAULT_PRODUCT_IMAGE];
  // The product's own pictures: its variants' stay theirs (PUT /products/:id/variants).
  await tx
    .delete(productImages)
    .where(and(eq(productImages.productId, productId), isNull(productImages.variantId)));
  await tx.insert(productImages).values(
    images.map((url, position) => ({
      productId,
      url,
      position,
      altText: `${input.title} – picture ${position + 1}`,
    })),
  );
  await tx.delete(productCategories).where(eq(productCategories.productId, productId));
  const chosen = await findOrCreateCategories(tx, input.categories);
  await tx.insert(productCategories).values(chosen.map(({ id }) => ({ productId, categoryId: id })));
  await writeBrandAndSpecs(
    tx,
    productId,
    input,
    chosen.map(({ id }) => id),
  );
  return { ...input, images, categories: chosen.map(({ name }) => name) };
}

/** A live product, locked until the transaction ends, as the form would show it; 404 when unknown or retired. */
async function lockedRecord(tx: Db, id: number): Promise<ProductRecord> {
  const [row] = await tx
    .select()
    .from(products)
    .where(and(eq(products.id, id), isNull(products.deletedAt)))
    .for("update");
  if (!row) throw new NotFound(PRODUCT_NOT_FOUND);
  // One query at a time: inside a transaction they share one connection.
  const images = await tx
    .select({ url: productImages.url })
    .from(productImages)
    .where(and(eq(productImages.productId, id), isNull(productImages.variantId)))
    .orderBy(asc(productImages.position));
  const links = await tx
    .select({ name: categories.name })
    .from(productCategories)
    .innerJoin(categories, eq(categories.id, productCategories.categoryId))
    .where(eq(productCategories.productId, id))
    .orderBy(asc(productCategories.categoryId));
  return {
    title: row.title,
    name: row.name,
    price: toDollars(row.priceCents),
    shippingCost: toDollars(row.shippingCostCents),
    stock: row.stock,
    description: row.description,
    images: images.map((image) => image.url),
    categories: links.map((link) => link.name),
  };
}

/** POST /products: the new product's id. */
export async function createProduct(db: Db, actor: Caller, input: ProductInput): Promise<number> {
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(products)
      .values({ ...productColumns(input), stock: input.stock })
      .returning({ id: products.id });
    const id = created!.id;
    const after = await writeRelations(tx, id, input);
    await recordChange(tx, actor, "product.create", id, { before: null, after });
    return id;
  });
}

/** PUT /products/:id: every field replaced, pictures and categories included. */
export async function updateProduct(db: Db, actor: Caller, id: number, input: ProductInput): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockedRecord(tx, id);
    // The form shows what is for sale (the shelf less checkouts' holds): the edit moves the shelf by the
    // change the admin made to it, so a sale or a hold between loading and saving is never undone.
    const { stock: forSale, onShelf } = (await lockStock(tx, [id])).get(id)!;
    const [{ options }] = (await tx
      .select({ options: products.options })
      .from(products)
      .where(eq(products.id, id))) as [{ options: unknown[] }];
    // A product sold in variants takes its price and stock from them (PUT /products/:id/variants).
    const soldInVariants = options.length > 0;
    if (!soldInVariants && input.stockBefore !== undefined && input.stockBefore !== forSale)
      throw new Conflict(`The stock changed while you edited it: ${forSale} now`, { stock: forSale });
    const { priceCents, ...columns } = productColumns(input);
    await tx
      .update(products)
      .set(soldInVariants ? columns : { ...columns, priceCents, stock: onShelf + input.stock - forSale })
      .where(eq(products.id, id));
    const after = await writeRelations(tx, id, input);
    await recordChange(tx, actor, "product.update", id, { before, after });
  });
}

/**
 * DELETE /products/:id: the product is retired (deleted_at): gone from the store, and no longer for sale in
 * carts (inventory/stock.ts), while past orders and reviews keep showing it.
 */
export async function deleteProduct(db: Db, actor: Caller, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockedRecord(tx, id);
    await tx.update(products).set({ deletedAt: new Date() }).where(eq(products.id, id));
    await recordChange(tx, actor, "product.delete", id, { before, after: null });
  });
}

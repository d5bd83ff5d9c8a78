import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { SaleInput } from "@voltio/domain/admin";
import type { Db } from "../../db/client";
import { categories, products, saleCategories, saleProducts, sales } from "../../db/schema";
import { InvalidInput, NotFound } from "../../errors";
import type { Caller } from "../identity/caller";
import { recordChange } from "../audit/service";

/**
 * Sales in the back office (docs/product-rules.md §1 Admin discounts, §10.6; §10). A sale bound to no
 * product and no category is global. Each change is on the audit log, in the transaction of the change, as
 * the sale was before and after (its fields and bound ids).
 */

export const SALE_NOT_FOUND = "Sale Not Found";

const withoutRepeats = (sale: SaleInput): SaleInput => ({
  ...sale,
  categories: [...new Set(sale.categories)],
  products: [...new Set(sale.products)],
});

const saleColumns = (sale: Omit<SaleInput, "categories" | "products">) => ({
  description: sale.description,
  percentage: sale.percentage,
  day: sale.day,
  productAmount: sale.productAmount,
  image: sale.image,
});

/** Refuses ids of categories or of live products that don't exist, naming the field. */
async function checkBindings(tx: Db, sale: SaleInput): Promise<void> {
  const refuseUnknown = (field: "categories" | "products", ids: number[], found: { id: number }[]) => {
    const known = new Set(found.map((row) => row.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw new InvalidInput(field, `unknown ${field}: ${unknown.join(", ")}`);
  };
  if (sale.categories.length > 0) {
    const found = await tx
      .select({ id: categories.id })
      .from(categories)
      .where(inArray(categories.id, sale.categories));
    refuseUnknown("categories", sale.categories, found);
  }
  if (sale.products.length > 0) {
    const found = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(inArray(products.id, sale.products), isNull(products.deletedAt)));
    refuseUnknown("products", sale.products, found);
  }
}

async function bind(tx: Db, saleId: number, sale: SaleInput): Promise<void> {
  if (sale.categories.length > 0)
    await tx.insert(saleCategories).values(sale.categories.map((categoryId) => ({ saleId, categoryId })));
  if (sale.products.length > 0)
    await tx.insert(saleProducts).values(sale.products.map((productId) => ({ saleId, productId })));
}

/** The sale, locked until the transaction ends, as the form would send it; 404 when unknown. */
async function lockedRecord(tx: Db, id: number): Promise<SaleInput> {
  const [row] = await tx.select().from(sales).where(eq(sales.id, id)).for("update");
  if (!row) throw new NotFound(SALE_NOT_FOUND);
  // One query at a time: inside a transaction they share one connection.
  const categoryLinks = await tx
    .select({ id: saleCategories.categoryId })
    .from(saleCategories)
    .where(eq(saleCategories.saleId, id))
    .orderBy(asc(saleCategories.categoryId));
  const productLinks = await tx
    .select({ id: saleProducts.productId })
    .from(saleProducts)
    .where(eq(saleProducts.saleId, id))
    .orderBy(asc(saleProducts.productId));
  return {
    ...saleColumns(row),
    categories: categoryLinks.map((link) => link.id),
    products: productLinks.map((link) => link.id),
  };
}

/** POST /sale: the new sale's id. */
export async function createSale(db: Db, actor: Caller, input: SaleInput): Promise<number> {
  const sale = withoutRepeats(input);
  return db.transaction(async (tx) => {
    await checkBindings(tx, sale);
    const [created] = await tx.insert(sales).values(saleColumns(sale)).returning({ id: sales.id });
    const id = created!.id;
    await bind(tx, id, sale);
    await recordChange(tx, actor, "sale.create", id, { before: null, after: sale });
    return id;
  });
}

/** PUT /sale: every field and binding replaced. */
export async function updateSale(db: Db, actor: Caller, id: number, input: SaleInput): Promise<void> {
  const sale = withoutRepeats(input);
  await db.transaction(async (tx) => {
    const before = await lockedRecord(tx, id);
    await checkBindings(tx, sale);
    await tx.update(sales).set(saleColumns(sale)).where(eq(sales.id, id));
    await tx.delete(saleCategories).where(eq(saleCategories.saleId, id));
    await tx.delete(saleProducts).where(eq(saleProducts.saleId, id));
    await bind(tx, id, sale);
    await recordChange(tx, actor, "sale.update", id, { before, after: sale });
  });
}

/** DELETE /sale?saleId=: the sale and its bindings; prices go back at once. */
export async function deleteSale(db: Db, actor: Caller, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockedRecord(tx, id);
    await tx.delete(sales).where(eq(sales.id, id));
    await recordChange(tx, actor, "sale.delete", id, { before, after: null });
  });
}

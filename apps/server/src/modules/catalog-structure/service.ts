import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import type { Attribute, AttributeInput, Brand, BrandInput } from "@voltio/domain/catalog-structure";
import { slugify } from "@voltio/domain/specs";
import type { Db } from "../../db/client";
import { attributes, brands, categories, productSpecs, products } from "../../db/schema";
import { Conflict, InvalidInput, NotFound } from "../../errors";
import { recordChange } from "../audit/service";
import type { Caller } from "../identity/caller";

/**
 * Brands and the attributes each category's products are specified by (issue 41, docs/product-rules.md
 * §2.10, §7.3.1). Every change is audited; the database tells every process (the 'catalog' notification).
 */

/**
 * The unique constraint a write broke (PostgreSQL 23505), if that is what failed: the checks before a write
 * read committed rows, so two admins saving the same name at once are told apart by the index, as a 409.
 */
export function brokenUniqueConstraint(error: unknown): string | undefined {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === "23505")
      return String((e as { constraint?: unknown }).constraint ?? "");
  return undefined;
}

/** A race lost on one of these constraints becomes the 409 its check would have given. */
export function conflictOnRace(conflicts: Record<string, () => Error>) {
  return (error: unknown): never => {
    const broken = brokenUniqueConstraint(error);
    throw (broken !== undefined && conflicts[broken]?.()) || error;
  };
}

const brandRaces = conflictOnRace({
  brands_name_lower_key: () => new Conflict("Another brand has this name", { field: "name" }),
  brands_slug_key: () => new Conflict("Another brand has this slug", { field: "slug" }),
});
const attributeRaces = conflictOnRace({
  attributes_category_key: () =>
    new Conflict("The category has an attribute with this key", { field: "key" }),
});

export const BRAND_NOT_FOUND = "Brand Not Found";
export const ATTRIBUTE_NOT_FOUND = "Attribute Not Found";

const brandColumns = {
  id: brands.id,
  name: brands.name,
  slug: brands.slug,
  logo: sql<string | null>`nullif(${brands.logo}, '')`,
  // Written out: inside a subquery drizzle would leave "id" unqualified, which the subquery's own table takes.
  productCount: sql<number>`(select count(*)::int from products p
    where p.brand_id = brands.id and p.deleted_at is null)`.mapWith(Number),
};

export async function listBrands(db: Db): Promise<Brand[]> {
  return db
    .select(brandColumns)
    .from(brands)
    .orderBy(asc(sql`lower(${brands.name})`));
}

export async function getBrand(db: Db, id: number): Promise<Brand> {
  const [brand] = await db.select(brandColumns).from(brands).where(eq(brands.id, id));
  if (!brand) throw new NotFound(BRAND_NOT_FOUND);
  return brand;
}

/** A name or slug another brand has: 409 naming the field. */
async function refuseTaken(tx: Db, input: { name: string; slug: string }, except?: number) {
  const others = except === undefined ? undefined : ne(brands.id, except);
  const [named] = await tx
    .select({ id: brands.id })
    .from(brands)
    .where(and(eq(sql`lower(${brands.name})`, input.name.toLowerCase()), others));
  if (named) throw new Conflict("Another brand has this name", { field: "name" });
  const [slugged] = await tx
    .select({ id: brands.id })
    .from(brands)
    .where(and(eq(brands.slug, input.slug), others));
  if (slugged) throw new Conflict("Another brand has this slug", { field: "slug" });
}

function brandValues(input: BrandInput) {
  const slug = input.slug ?? slugify(input.name);
  if (slug === "") throw new InvalidInput("slug", "can't be made from this name: give one");
  return { name: input.name, slug, logo: input.logo ?? "" };
}

export async function createBrand(db: Db, actor: Caller, input: BrandInput): Promise<number> {
  const values = brandValues(input);
  return db
    .transaction(async (tx) => {
      await refuseTaken(tx, values);
      const [created] = await tx.insert(brands).values(values).returning({ id: brands.id });
      await recordChange(tx, actor, "brand.create", created!.id, { before: null, after: values });
      return created!.id;
    })
    .catch(brandRaces);
}

export async function updateBrand(db: Db, actor: Caller, id: number, input: BrandInput): Promise<void> {
  const values = brandValues(input);
  await db
    .transaction(async (tx) => {
      const [before] = await tx.select().from(brands).where(eq(brands.id, id)).for("update");
      if (!before) throw new NotFound(BRAND_NOT_FOUND);
      await refuseTaken(tx, values, id);
      await tx
        .update(brands)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(brands.id, id));
      await recordChange(tx, actor, "brand.update", id, { before, after: values });
    })
    .catch(brandRaces);
}

/** A brand some product (even a retired one) names can't go: 409 with how many. */
export async function deleteBrand(db: Db, actor: Caller, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(brands).where(eq(brands.id, id)).for("update");
    if (!before) throw new NotFound(BRAND_NOT_FOUND);
    const [used] = await tx.select({ n: count() }).from(products).where(eq(products.brandId, id));
    if (used!.n > 0)
      throw new Conflict(`${used!.n} products are of this brand: give them another brand first`, {
        products: used!.n,
      });
    await tx.delete(brands).where(eq(brands.id, id));
    await recordChange(tx, actor, "brand.delete", id, { before, after: null });
  });
}

const attributeColumns = {
  id: attributes.id,
  categoryId: attributes.categoryId,
  key: attributes.key,
  label: attributes.label,
  type: attributes.type,
  unit: sql<string | null>`nullif(${attributes.unit}, '')`,
  enumValues: attributes.enumValues,
  filterable: attributes.filterable,
  betterWhen: attributes.betterWhen,
  position: attributes.position,
};

export async function listAttributes(db: Db, categoryId?: number): Promise<Attribute[]> {
  return db
    .select(attributeColumns)
    .from(attributes)
    .where(categoryId === undefined ? undefined : eq(attributes.categoryId, categoryId))
    .orderBy(asc(attributes.categoryId), asc(attributes.position), asc(attributes.id));
}

export async function getAttribute(db: Db, id: number): Promise<Attribute> {
  const [attribute] = await db.select(attributeColumns).from(attributes).where(eq(attributes.id, id));
  if (!attribute) throw new NotFound(ATTRIBUTE_NOT_FOUND);
  return attribute;
}

async function checkAttribute(tx: Db, input: AttributeInput, except?: number) {
  const [category] = await tx
    .select({ id: categories.id })
    .from(categories)
    .where(eq(categories.id, input.categoryId));
  if (!category) throw new InvalidInput("categoryId", "is not a category");
  const [same] = await tx
    .select({ id: attributes.id })
    .from(attributes)
    .where(
      and(
        eq(attributes.categoryId, input.categoryId),
        eq(attributes.key, input.key),
        except === undefined ? undefined : ne(attributes.id, except),
      ),
    );
  if (same) throw new Conflict("The category has an attribute with this key", { field: "key" });
}

const attributeValues = (input: AttributeInput) => ({ ...input, unit: input.unit ?? "" });

export async function createAttribute(db: Db, actor: Caller, input: AttributeInput): Promise<number> {
  return db
    .transaction(async (tx) => {
      await checkAttribute(tx, input);
      const [created] = await tx
        .insert(attributes)
        .values(attributeValues(input))
        .returning({ id: attributes.id });
      await recordChange(tx, actor, "attribute.create", created!.id, { before: null, after: input });
      return created!.id;
    })
    .catch(attributeRaces);
}

/**
 * An attribute's definition replaced. Its products' values stay: a value the new type can't read (text
 * turned number) is refused until the admin removes or fixes those values.
 */
export async function updateAttribute(
  db: Db,
  actor: Caller,
  id: number,
  input: AttributeInput,
): Promise<void> {
  await db
    .transaction(async (tx) => {
      const [before] = await tx.select().from(attributes).where(eq(attributes.id, id)).for("update");
      if (!before) throw new NotFound(ATTRIBUTE_NOT_FOUND);
      await checkAttribute(tx, input, id);
      if (before.type !== input.type) {
        const [valued] = await tx
          .select({ n: count() })
          .from(productSpecs)
          .where(eq(productSpecs.attributeId, id));
        if (valued!.n > 0)
          throw new InvalidInput(
            "type",
            `${valued!.n} products have a value of this attribute: it keeps its type`,
          );
      }
      await tx
        .update(attributes)
        .set({ ...attributeValues(input), updatedAt: new Date() })
        .where(eq(attributes.id, id));
      await recordChange(tx, actor, "attribute.update", id, { before, after: input });
    })
    .catch(attributeRaces);
}

/** An attribute removed with its products' values of it. */
export async function deleteAttribute(db: Db, actor: Caller, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(attributes).where(eq(attributes.id, id)).for("update");
    if (!before) throw new NotFound(ATTRIBUTE_NOT_FOUND);
    await tx.delete(attributes).where(eq(attributes.id, id));
    await recordChange(tx, actor, "attribute.delete", id, { before, after: null });
  });
}

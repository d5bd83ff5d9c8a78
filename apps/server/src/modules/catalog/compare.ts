import type { CompareReply } from "@voltio/domain/compare";
import { bestValues, valuesDiffer } from "@voltio/domain/specs";
import type { Db } from "../../db/client";
import { rawQuery } from "../../db/raw";
import { InvalidInput, NotFound } from "../../errors";
import type { TtlCache } from "./ttl-cache";
import { catalogReference, type CatalogReference } from "./reference";
import { productsByIds } from "./service";

/**
 * GET /compare (issue 41, docs/product-rules.md §2.11): the products' specifications side by side, the rows
 * that differ, and the best value of each row whose attribute says higher or lower is better. The products
 * must share a category: comparing a mouse with a monitor says nothing.
 */
export async function compareProducts(
  db: Db,
  ids: number[],
  cache?: TtlCache<CatalogReference>,
): Promise<CompareReply> {
  const [{ products }, reference] = await Promise.all([productsByIds(db, ids), catalogReference(db, cache)]);
  const missing = ids.find((id) => !products.some((product) => product.id === id));
  if (missing !== undefined) throw new NotFound(`Product ${missing} Not Found`);
  const shared = products
    .map((product) => new Set(product.categories.map((category) => category.id)))
    .reduce((common, own) => new Set([...common].filter((id) => own.has(id))));
  if (shared.size === 0) throw new InvalidInput("ids", "must be products of one category");
  // The narrowest category they share: Laptops rather than Computers.
  const [narrowest] = await rawQuery(db)<{ id: number }>(
    "compare_narrowest_category",
    `select category_id as id from product_categories where category_id = any($1::int[])
     group by category_id order by count(*), category_id limit 1`,
    [[...shared]],
  );
  const keys = [...new Set(products.flatMap((product) => product.specs.map((spec) => spec.key)))];
  const ordered = reference.attributes.filter(
    (attribute, index, all) =>
      keys.includes(attribute.key) && all.findIndex((a) => a.key === attribute.key) === index,
  );
  const rows = products.map((product) =>
    Object.fromEntries(product.specs.map((spec) => [spec.key, spec.value] as const)),
  );
  const best: Record<string, number[]> = {};
  const differs: string[] = [];
  for (const attribute of ordered) {
    const values = rows.map((row) => row[attribute.key]);
    const winners = bestValues(values, attribute.betterWhen);
    if (winners.length) best[attribute.key] = winners.map((index) => products[index]!.id);
    if (valuesDiffer(values)) differs.push(attribute.key);
  }
  return {
    category: narrowest ? { id: narrowest.id, name: reference.categoryNames.get(narrowest.id) ?? "" } : null,
    attributes: ordered.map(({ key, label, unit, type, betterWhen }) => ({
      key,
      label,
      unit,
      type,
      betterWhen,
    })),
    products: products.map((product, index) => ({
      id: product.id,
      title: product.title,
      price: product.price,
      images: product.images,
      brand: product.brand,
      rating: product.rating,
      specs: Object.fromEntries(
        ordered.map((attribute) => [attribute.key, rows[index]![attribute.key] ?? null]),
      ),
    })),
    best,
    differs,
  };
}

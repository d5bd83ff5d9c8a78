import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { productInputSchema } from "@voltio/domain/admin";
import { variantsInputSchema } from "@voltio/domain/catalog-structure";
import { toDollars } from "@voltio/domain/money";
import {
  CATEGORY_SEPARATOR,
  PRODUCT_CSV_COLUMNS,
  SPEC_COLUMN_PREFIX,
  readProductCsv,
  type CsvProblem,
  type CsvProduct,
} from "@voltio/domain/product-csv";
import { slugify } from "@voltio/domain/specs";
import type { ProductOption, VariantOptions } from "@voltio/domain/variants";
import type { Db } from "../../db/client";
import { attributes, brands, productImages, productVariants, products } from "../../db/schema";
import { InvalidInput, ServiceError } from "../../errors";
import type { Caller } from "../identity/caller";
import { csvField } from "../orders/admin-export";
import { createProduct, updateProduct } from "./products";
import { replaceVariants } from "./variants";

/**
 * CSV export and import of products with brands, specifications and variants (issue 41,
 * docs/product-rules.md §7.3.1; columns in packages/domain/src/product-csv.ts). An import is one
 * transaction: each product is written as the admin's form and variant grid write it (so the same rules and
 * audit entries), and any problem refuses the whole file with every problem's line and column.
 */

/** A refused file: 400 with `errors: [{line, field, reason}]`. */
export class CsvRefused extends ServiceError {
  constructor(readonly problems: CsvProblem[]) {
    super(
      `The file has ${problems.length} problem${problems.length === 1 ? "" : "s"}: nothing was imported`,
      {
        errors: problems,
      },
    );
  }
}

interface ExportRow {
  id: number;
  title: string;
  name: string;
  description: string;
  brand: string | null;
  categories: string[];
  shippingCostCents: number;
  options: ProductOption[];
  specs: Record<string, number | string> | null;
  variants: {
    sku: string;
    options: VariantOptions;
    priceCents: number;
    stock: number;
    saleEligible: boolean;
  }[];
}

/** GET /admin/products/export.csv: every product for sale or not (retired ones aside), a row per live variant. */
export async function exportProductsCsv(db: Db): Promise<string> {
  const result = await db.execute(sql`
    select p.id, p.title, p.name, p.description, p.shipping_cost_cents as "shippingCostCents", p.options,
      (select b.name from brands b where b.id = p.brand_id) as brand,
      array(select c.name from product_categories pc join categories c on c.id = pc.category_id
        where pc.product_id = p.id order by c.id) as categories,
      (select jsonb_object_agg(a.key, coalesce(to_jsonb(s.number_value), to_jsonb(s.text_value)))
        from product_specs s join attributes a on a.id = s.attribute_id where s.product_id = p.id) as specs,
      (select jsonb_agg(jsonb_build_object('sku', v.sku, 'options', v.options, 'priceCents', v.price_cents,
          'stock', v.stock, 'saleEligible', v.sale_eligible) order by v.position, v.id)
        from product_variants v where v.product_id = p.id and v.retired_at is null) as variants
    from products p where p.deleted_at is null order by p.id`);
  const rows = (result as unknown as { rows: ExportRow[] }).rows;
  const keys = [
    ...new Set(
      (
        await db
          .select({ key: attributes.key })
          .from(attributes)
          .orderBy(asc(attributes.position), asc(attributes.id))
      ).map((attribute) => attribute.key),
    ),
  ].filter((key) => rows.some((row) => row.specs?.[key] !== undefined));
  const header = [...PRODUCT_CSV_COLUMNS, ...keys.map((key) => `${SPEC_COLUMN_PREFIX}${key}`)];
  const lines = [header.join(",")];
  for (const row of rows)
    for (const variant of row.variants ?? []) {
      const optionCells = [0, 1, 2].flatMap((n) => {
        const option = row.options[n];
        return option ? [option.name, variant.options[option.name] ?? ""] : ["", ""];
      });
      const cells: (string | number | null)[] = [
        row.id,
        row.title,
        row.name,
        row.description,
        row.brand ?? "",
        row.categories.join(CATEGORY_SEPARATOR),
        toDollars(row.shippingCostCents).toFixed(2),
        ...optionCells,
        variant.sku,
        toDollars(variant.priceCents).toFixed(2),
        variant.stock,
        String(variant.saleEligible),
        ...keys.map((key) => row.specs?.[key] ?? ""),
      ];
      lines.push(cells.map(csvField).join(","));
    }
  return `${lines.join("\r\n")}\r\n`;
}

/** Where a zod issue of the product's input or its variant grid points in the file. */
function problemAt(product: CsvProduct, path: PropertyKey[], reason: string): CsvProblem {
  const [first, index, field] = path.map(String);
  if (first === "variants" && index !== undefined) {
    const variant = product.variants[Number(index)];
    const column =
      field === "saleEligible" ? "sale_eligible" : field === "options" ? "option1_value" : (field ?? "sku");
    return { line: variant?.line ?? product.line, field: column, reason };
  }
  const columns: Record<string, string> = {
    shippingCost: "shipping_cost",
    price: "price",
    stock: "stock",
    specs: path[1] === undefined ? "specs" : `${SPEC_COLUMN_PREFIX}${String(path[1])}`,
    brandId: "brand",
    options: "option1_name",
  };
  return { line: product.line, field: columns[first ?? ""] ?? first ?? "", reason };
}

async function brandIdOf(tx: Db, name: string): Promise<number | null> {
  if (name === "") return null;
  const [found] = await tx
    .select({ id: brands.id })
    .from(brands)
    .where(eq(sql`lower(${brands.name})`, name.toLowerCase()));
  if (found) return found.id;
  const [created] = await tx
    .insert(brands)
    .values({ name, slug: slugify(name) || `brand-${Date.now()}` })
    .returning({ id: brands.id });
  return created!.id;
}

/** One product of the file, written as the form and the grid write it; its problems, none when written. */
async function writeProduct(
  tx: Db,
  actor: Caller,
  product: CsvProduct,
): Promise<CsvProblem[] | "created" | "updated"> {
  const existing = product.productId
    ? (
        await tx
          .select({ id: products.id })
          .from(products)
          .where(and(eq(products.id, product.productId), isNull(products.deletedAt)))
      )[0]
    : undefined;
  if (product.productId && !existing)
    return [{ line: product.line, field: "product_id", reason: "is not a product of the store" }];
  // An update keeps the product's pictures: the file doesn't carry them.
  const images = existing
    ? (
        await tx
          .select({ url: productImages.url })
          .from(productImages)
          .where(and(eq(productImages.productId, existing.id), isNull(productImages.variantId)))
          .orderBy(asc(productImages.position))
      ).map((image) => image.url)
    : [];
  const input = productInputSchema.safeParse({
    title: product.title,
    name: product.name,
    description: product.description,
    price: product.variants[0]!.price,
    shippingCost: product.shippingCost,
    stock: String(product.variants.reduce((sum, variant) => sum + (Number(variant.stock) || 0), 0)),
    images,
    categories: product.categories,
    brandId: await brandIdOf(tx, product.brand),
    specs: product.specs,
  });
  if (!input.success) return input.error.issues.map((issue) => problemAt(product, issue.path, issue.message));
  const id = existing ? existing.id : await createProduct(tx, actor, input.data);
  if (existing) await updateProduct(tx, actor, id, input.data);
  const live = await tx
    .select({ id: productVariants.id, sku: productVariants.sku, options: productVariants.options })
    .from(productVariants)
    .where(and(eq(productVariants.productId, id), isNull(productVariants.retiredAt)));
  const grid = variantsInputSchema.safeParse({
    options: product.options,
    variants: product.variants.map((variant, index) => {
      // The variant it already is: by SKU, else by its options (a product sold one way: its one variant).
      const same =
        live.find((row) => variant.sku !== "" && row.sku.toLowerCase() === variant.sku.toLowerCase()) ??
        live.find((row) => JSON.stringify(row.options) === JSON.stringify(variant.options));
      return {
        id: same?.id,
        sku: variant.sku || same?.sku || `P${id}-${index + 1}`,
        options: variant.options,
        price: variant.price,
        stock: variant.stock,
        saleEligible: variant.saleEligible,
      };
    }),
  });
  if (!grid.success) return grid.error.issues.map((issue) => problemAt(product, issue.path, issue.message));
  await replaceVariants(tx, actor, id, grid.data);
  return existing ? "updated" : "created";
}

/** POST /admin/products/import. */
export async function importProductsCsv(
  db: Db,
  actor: Caller,
  text: string,
): Promise<{ created: number; updated: number }> {
  const { products: read, problems } = readProductCsv(text);
  if (problems.length) throw new CsvRefused(problems);
  return db.transaction(async (tx) => {
    const found: CsvProblem[] = [];
    const counts = { created: 0, updated: 0 };
    for (const product of read) {
      let refused: CsvProblem[] = [];
      try {
        // A savepoint each: a product refused midway leaves nothing, and the others are still checked.
        await tx.transaction(async (savepoint) => {
          const written = await writeProduct(savepoint as unknown as Db, actor, product);
          if (Array.isArray(written)) {
            refused = written;
            savepoint.rollback();
          } else counts[written]++;
        });
      } catch (error) {
        if (refused.length) found.push(...refused);
        else if (error instanceof ServiceError) found.push(problemOf(product, error));
        else throw error;
      }
    }
    if (found.length) throw new CsvRefused(found);
    return counts;
  });
}

/** A refusal of the form's or the grid's rules (a spec of the wrong type, a SKU taken), at its line and column. */
function problemOf(product: CsvProduct, error: ServiceError): CsvProblem {
  if (error instanceof InvalidInput) return problemAt(product, error.field.split("."), error.reason);
  return { line: product.line, field: "", reason: error.message };
}

import { count, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_CSV_COLUMNS } from "@voltio/domain/product-csv";
import type { Product } from "@voltio/domain/catalog";
import { createTestApp, type TestContext } from "../../../test/app";
import type { Headers } from "../../../test/shop";
import { auditLog, products } from "../../db/schema";

/**
 * Products as CSV (issue 41 point 8, docs/product-rules.md §7.3.1): the export's columns are the import's,
 * a file of the demo catalogue comes back unchanged, problems are reported by line and column with nothing
 * written, and 5,000 rows go in one transaction.
 */
let t: TestContext;
let admin: Headers;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.bearer(1);
});
afterAll(() => t.close());

const exported = async () => {
  const reply = await t.app.inject({ url: "/api/admin/products/export.csv", headers: admin });
  expect(reply.statusCode, reply.body).toBe(200);
  expect(reply.headers["content-type"]).toContain("text/csv");
  return reply.body;
};
const imported = (csv: string, headers = admin) =>
  t.app.inject({
    method: "POST",
    url: "/api/admin/products/import",
    headers: { ...headers, "content-type": "text/csv" },
    payload: csv,
  });
const header = (specs: string[] = []) => [...PRODUCT_CSV_COLUMNS, ...specs].join(",");
const row = (
  cells: Partial<Record<(typeof PRODUCT_CSV_COLUMNS)[number] | `spec:${string}`, string | number>>,
  specs: string[] = [],
) =>
  [...PRODUCT_CSV_COLUMNS, ...specs]
    .map((column) => {
      const value = String(cells[column as keyof typeof cells] ?? "");
      return /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
    })
    .join(",");

describe("products as CSV", () => {
  it("exports a row per variant, which imports back unchanged", async () => {
    const csv = await exported();
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toContain("product_id,title,name,description,brand,categories");
    expect(lines[0]).toContain("spec:ram_gb");
    // The demo laptop sold in three memory × storage variants has three rows.
    expect(lines.filter((line) => line.startsWith("59,"))).toHaveLength(3);
    const before = (await t.app.inject({ url: "/api/products/59" })).json<Product>();

    const reply = await imported(csv);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toEqual({ created: 0, updated: expect.any(Number) });
    const after = (await t.app.inject({ url: "/api/products/59" })).json<Product>();
    expect(after).toEqual(before);
    expect(await exported()).toBe(csv);
  });

  it("refuses a file with problems, naming each line and column, and writes nothing", async () => {
    const specs = ["spec:ram_gb"];
    const csv = [
      header(specs),
      row(
        {
          title: "CSV laptop",
          name: "laptop",
          description: "New",
          categories: "Laptops|Computers",
          shipping_cost: "0",
          sku: "CSV-1",
          price: "999",
          stock: 3,
          "spec:ram_gb": "lots",
        },
        specs,
      ),
      row(
        {
          title: "CSV mouse",
          name: "mouse",
          description: "New",
          categories: "Mouse",
          shipping_cost: "0",
          sku: "CSV-2",
          price: "-5",
          stock: 1,
        },
        specs,
      ),
      row(
        {
          title: "CSV mouse 2",
          name: "mouse",
          description: "New",
          categories: "Mouse",
          shipping_cost: "0",
          sku: "CSV-2",
          price: "5",
          stock: 1,
        },
        specs,
      ),
      row(
        {
          product_id: 999999,
          title: "Gone",
          name: "x",
          description: "x",
          categories: "Mouse",
          shipping_cost: "0",
          sku: "CSV-3",
          price: "5",
          stock: 1,
        },
        specs,
      ),
    ].join("\n");
    const [{ n: before }] = (await t.database.db.select({ n: count() }).from(products)) as [{ n: number }];
    const reply = await imported(csv);
    expect(reply.statusCode).toBe(400);
    const { errors } = reply.json<{ errors: { line: number; field: string }[] }>();
    expect(errors).toEqual(expect.arrayContaining([expect.objectContaining({ line: 4, field: "sku" })]));
    // The file is read before anything is written: a duplicated SKU stops it there.
    const fixed = csv.replace("CSV-2,5,1", "CSV-4,5,1");
    const second = await imported(fixed);
    expect(second.statusCode).toBe(400);
    expect(second.json<{ errors: unknown[] }>().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 2, field: "spec:ram_gb" }),
        expect.objectContaining({ line: 3, field: "price" }),
        expect.objectContaining({ line: 5, field: "product_id" }),
      ]),
    );
    const [{ n: after }] = (await t.database.db.select({ n: count() }).from(products)) as [{ n: number }];
    expect(after).toBe(before);
    expect(await t.database.db.select().from(products).where(like(products.title, "CSV %"))).toEqual([]);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/admin/products/import",
          headers: { ...(await t.bearer(2)), "content-type": "text/csv" },
          payload: csv,
        })
      ).statusCode,
    ).toBe(403);
  });

  it("imports 5,000 rows — 250 products in 5 colours × 4 sizes — in one transaction", async () => {
    const lines = [header()];
    for (let product = 1; product <= 250; product++)
      for (const colour of ["Black", "White", "Red", "Blue", "Green"])
        for (const size of ["S", "M", "L", "XL"])
          lines.push(
            row({
              title: `Bulk ${product}`,
              name: "bulk",
              description: "Imported",
              brand: `Bulk brand ${product % 10}`,
              categories: "Peripheral",
              shipping_cost: "1.50",
              option1_name: "Colour",
              option1_value: colour,
              option2_name: "Size",
              option2_value: size,
              sku: `BULK-${product}-${colour}-${size}`,
              price: size === "S" ? "10.00" : "12.50",
              stock: 2,
            }),
          );
    expect(lines).toHaveLength(5001);
    const reply = await imported(lines.join("\r\n"));
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toEqual({ created: 250, updated: 0 });
    const [made] = await t.database.db.select().from(products).where(eq(products.title, "Bulk 177"));
    expect(made).toMatchObject({ priceCents: 1000, stock: 40 });
    const shown = (await t.app.inject({ url: `/api/products/${made!.id}` })).json<Product>();
    expect(shown.variants).toHaveLength(20);
    expect(shown.brand?.name).toBe("Bulk brand 7");
    const [{ n }] = (await t.database.db
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.action, "product.create"))) as [{ n: number }];
    expect(n).toBeGreaterThanOrEqual(250);
  }, 180_000);
});

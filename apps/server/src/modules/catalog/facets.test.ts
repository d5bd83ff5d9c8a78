import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductList } from "@voltio/domain/catalog";
import { createTestApp, type TestContext } from "../../../test/app";

/**
 * Facet filters, counts and search over brands, specifications and variants (issue 41,
 * docs/product-rules.md §2.11), on the demo catalogue: laptops with RAM, mice with connections, brands.
 */
let t: TestContext;
let laptops: number;
let mice: number;

const list = async (query: string) => {
  const reply = await t.app.inject({ url: `/api/products?${query}` });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<ProductList>();
};
const titles = (reply: ProductList) => reply.products.map((product) => product.title);

beforeAll(async () => {
  t = await createTestApp();
  const categories = (await t.app.inject({ url: "/api/categories" })).json<{ id: number; name: string }[]>();
  laptops = categories.find((category) => category.name === "Laptops")!.id;
  mice = categories.find((category) => category.name === "Mouse")!.id;
});
afterAll(() => t.close());

describe("facet filters", () => {
  it("filter by brand (any of several), a number range and an enum, together", async () => {
    const dell = await list(`categoryId=${laptops}&brand=dell&limit=50`);
    expect(titles(dell)).toEqual(["Newest Dell Laptop Latitude 3520"]);
    const either = await list(`categoryId=${laptops}&brand=dell&brand=hp&limit=50`);
    expect(either.total).toBe(3);
    const roomy = await list(`categoryId=${laptops}&spec.ram_gb.min=16&limit=50`);
    expect(titles(roomy).sort()).toEqual(
      ["HP Pavilion 15 Laptop", "Lenovo Flex 5 Laptop", "Newest Dell Laptop Latitude 3520"].sort(),
    );
    const hpRoomy = await list(`categoryId=${laptops}&brand=hp&spec.ram_gb.min=16&spec.ram_gb.max=16`);
    expect(titles(hpRoomy)).toEqual(["HP Pavilion 15 Laptop"]);
    const wireless = await list(`categoryId=${mice}&spec.connection=wireless&limit=50`);
    expect(wireless.products.length).toBeGreaterThan(0);
    for (const product of wireless.products)
      expect(product.specs).toContainEqual(expect.objectContaining({ key: "connection", value: "Wireless" }));
  });

  it("count each facet's values under every other filter", async () => {
    const reply = await list(`categoryId=${laptops}&brand=hp&facets=true`);
    // The brand facet ignores the brand filter: every laptop brand, with its count.
    expect(reply.facets!.brand).toEqual(
      expect.arrayContaining([
        { value: "dell", label: "Dell", count: 1 },
        { value: "hp", label: "HP", count: 2 },
      ]),
    );
    // RAM counts only HP's laptops.
    expect(reply.facets!.ram_gb).toEqual([
      { value: "8", label: "8 GB", count: 1 },
      { value: "16", label: "16 GB", count: 1 },
    ]);
    expect(reply.facetAttributes).toContainEqual({
      key: "ram_gb",
      label: "RAM",
      type: "number",
      unit: "GB",
      min: 8,
      max: 16,
    });
    expect(reply.facets!.availability).toEqual([{ value: "inStock", label: "In stock", count: 2 }]);
  });

  it("name the parameter that can't be read", async () => {
    for (const [query, field] of [
      ["spec.warp_drive=1", "spec.warp_drive"],
      ["spec.ram_gb.min=lots", "spec.ram_gb.min"],
      ["spec.ram_gb.min=32&spec.ram_gb.max=16", "spec.ram_gb.max"],
      ["minRating=9", "minRating"],
    ] as const) {
      const reply = await t.app.inject({ url: `/api/products?${query}` });
      expect(reply.statusCode, query).toBe(400);
      expect(reply.json<{ details: { field: string }[] }>().details[0]!.field).toBe(field);
    }
  });
});

describe("search over brands, specifications and variants", () => {
  it("finds a laptop by its memory as typed, and a mouse by a variant's colour and its connection", async () => {
    expect(titles(await list("search=32gb laptop"))).toContain("Newest Dell Laptop Latitude 3520");
    const mouse = await list("search=white wireless mouse");
    expect(titles(mouse).slice(0, 3)).toContain("Logitech M510 Wireless Computer Mouse");
  });

  it("filters and counts a search's matches", async () => {
    const reply = await list("search=laptop&brand=dell&facets=true");
    expect(titles(reply)).toEqual(["Newest Dell Laptop Latitude 3520"]);
    expect(reply.facets!.brand!.length).toBeGreaterThan(1);
  });
});

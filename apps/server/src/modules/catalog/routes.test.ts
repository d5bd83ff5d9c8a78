import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productListSchema, productSchema, type ProductList } from "@voltio/domain/catalog";
import { eq } from "drizzle-orm";
import { products } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function list(query: string, headers: Record<string, string> = {}): Promise<ProductList> {
  const reply = await t.app.inject({ url: `/api/products${query}`, headers });
  expect(reply.statusCode, reply.body).toBe(200);
  return productListSchema.parse(reply.json());
}

describe("GET /api/products", () => {
  it("pages the in-stock demo catalogue, 16 by default", async () => {
    const page = await list("");
    // 59 products, one of them (HOTWEEMS mouse, id 16) has no stock.
    expect(page.total).toBe(58);
    expect(page.totalPages).toBe(4);
    expect(page.pages).toBe(4);
    expect(page.page).toBe(1);
    expect(page.products).toHaveLength(16);
    expect(page.products.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17]);
    const last = await list("?offset=4");
    expect(last.products.map((p) => p.id)).toEqual([50, 51, 52, 53, 54, 55, 56, 57, 58, 59]);
    expect(page.globalSales).toEqual([{ id: 1, percentage: 10, day: "fri", productAmount: 0 }]);
  });

  it("ends every demo description in '. ', so a SPEC client dropping the last fragment keeps every sentence", async () => {
    const all = await list("?limit=100");
    expect(all.products.filter((p) => !p.description.endsWith(". ")).map((p) => p.id)).toEqual([]);
    // 'Dual HDMI and VGA outputs. 1 Year Warranty.' in the catalogue: its warranty is a sentence too.
    const warranty = all.products.find((p) => p.description.includes("outputs. 1 Year Warranty"));
    expect(warranty?.description.split(". ").slice(0, -1).at(-1)).toBe("1 Year Warranty");
  });

  it("replies products in the API shape, money in dollars", async () => {
    const { products: items } = await list("?limit=100");
    const hp = items.find((p) => p.id === 1)!;
    expect(hp).toMatchObject({
      title: "Microsoft Authorized Refurbished- HP",
      price: 212.69,
      shippingCost: 67.32,
      stock: 5,
    });
    expect(hp.categories).toEqual([
      { id: 1, name: "Computers" },
      { id: 2, name: "Pc Desktop" },
    ]);
    expect(hp.images.length).toBeGreaterThanOrEqual(2);
    expect(hp.images.length).toBeLessThanOrEqual(4);
    const ubotie = items.find((p) => p.id === 15)!;
    expect(ubotie.sales.productSales).toEqual([{ id: 4, percentage: 35, day: "thu", productAmount: 0 }]);
    expect(ubotie.sales.categorySales).toEqual([{ id: 3, percentage: 40, day: "sun", productAmount: 1 }]);
    const mouse = items.find((p) => p.id === 11)!;
    expect(mouse.sales.categorySales).toEqual([{ id: 2, percentage: 100, day: "all", productAmount: 2 }]);
  });

  it("filters by category, price and free shipping, and sorts by price", async () => {
    const mice = await list("?categoryId=6&limit=100");
    expect(mice.products.map((p) => p.id)).toEqual([11, 17, 18, 19]);
    const cheap = await list("?minPrice=10&maxPrice=30&order=ASC&limit=100");
    const prices = cheap.products.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(Math.min(...prices)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...prices)).toBeLessThanOrEqual(30);
    const expensiveFirst = await list("?order=DESC&limit=3");
    expect(expensiveFirst.products.map((p) => p.price)).toEqual([1699.99, 1399.99, 1349]);
    const free = await list("?freeShipping=true&limit=100");
    expect(free.products.map((p) => p.id)).toEqual([22, 24, 43, 44, 45, 46, 47, 53]);
    const notFiltered = await list("?freeShipping=false");
    expect(notFiltered.total).toBe(58);
    const combined = await list("?categoryId=14&maxPrice=100&order=ASC");
    expect(combined.products.map((p) => p.price)).toEqual([79.99, 89.99, 99.99]);
  });

  it("finds 'logitec mose' → Logitech mice, and searches title, name and description", async () => {
    const result = await list("?search=logitec%20mose");
    const ids = result.products.map((p) => p.id);
    expect(ids).toContain(11);
    expect(ids).toContain(19);
    for (const product of result.products) {
      expect(`${product.title} ${product.name}`.toLowerCase()).toContain("logitech");
    }
    expect((await list("?search=MOUSE&limit=100")).products.map((p) => p.id)).toEqual(
      expect.arrayContaining([11, 17, 18, 19]),
    );
    // "bloatware" is in no title or name: a description-only match.
    expect((await list("?search=bloatware")).products.map((p) => p.id)).toEqual([1, 5]);
    // A prefix finds whole words while the shopper is still typing.
    expect((await list("?search=logi&limit=100")).products.map((p) => p.id)).toEqual(
      expect.arrayContaining([7, 11, 19, 22, 23]),
    );
    expect((await list("?search=zzzqqq")).products).toEqual([]);
    expect((await list("?search=%25%25%25")).total).toBe(0);
    expect((await list("?search=webcam%201080p&limit=100")).products.map((p) => p.id)).toEqual(
      expect.arrayContaining([20, 21]),
    );
  });

  it("hides out-of-stock products from shoppers, shows them to admins who ask", async () => {
    expect((await list("?categoryId=6&includeOutOfStock=true")).total).toBe(4);
    expect((await list("?categoryId=6&includeOutOfStock=true", await t.bearer(2))).total).toBe(4);
    const forAdmin = await list("?categoryId=6&includeOutOfStock=true", await t.bearer(1));
    expect(forAdmin.products.map((p) => p.id)).toEqual([11, 16, 17, 18, 19]);
  });

  it.each([
    ["?limit=-1", "limit"],
    ["?offset=abc", "offset"],
    ["?order=UP", "order"],
    ["?minPrice=50&maxPrice=10", "maxPrice"],
    ["?categoryId=1.5", "categoryId"],
    ["?freeShipping=maybe", "freeShipping"],
  ])("%s → 400 naming %s", async (query, field) => {
    const reply = await t.app.inject({ url: `/api/products${query}` });
    expect(reply.statusCode).toBe(400);
    const body = reply.json();
    expect(body.details[0].field).toBe(field);
    expect(body.error).toContain(field);
    expect(body.details[0].reason.length).toBeGreaterThan(3);
  });

  it.each([
    ["?categoryId=2147483648", "categoryId"],
    ["?categoryId=99999999999999999999", "categoryId"],
    ["?categoryId=0x10", "categoryId"],
    ["?limit=1e1", "limit"],
    ["?limit=", "limit"],
    ["?minPrice=%20", "minPrice"],
    ["?search=a&search=b", "search"],
    ["?search=%00", "search"],
    ["?search=ok&x%00=1", "x\u0000"],
  ])("%s → 400 naming %s, never a database error", async (query, field) => {
    const reply = await t.app.inject({ url: `/api/products${query}` });
    expect(reply.statusCode, reply.body).toBe(400);
    expect(reply.json().details[0].field).toBe(field);
  });

  it("accepts numbers as a form types them", async () => {
    const reply = await t.app.inject({
      url: "/api/products?minPrice=31.50&maxPrice=100&limit=7&categoryId=16",
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().products.length).toBeLessThanOrEqual(7);
  });

  it("caches replies by the parsed question, not the URL", async () => {
    const first = await t.app.inject({ url: "/api/products?limit=2&offset=7" });
    const second = await t.app.inject({ url: "/api/products?offset=7&limit=2" });
    expect(first.headers["x-cache"]).toBe("miss");
    expect(second.headers["x-cache"]).toBe("hit");
    expect(second.body).toBe(first.body);
    // Unknown parameters and other spellings of the same values find the same entry: they add none.
    for (const junk of ["&junk=1", `&x=${"y".repeat(500)}`, "&offset2=7", "&limit=02"]) {
      const reply = await t.app.inject({ url: `/api/products?limit=2&offset=7${junk}` });
      if (junk === "&limit=02") expect(reply.statusCode).toBe(400);
      else expect(reply.headers["x-cache"], junk).toBe("hit");
    }
  });

  it("never serves the admin's listing of out-of-stock products to anyone else", async () => {
    const url = "/api/products?categoryId=6&includeOutOfStock=%74rue&limit=50";
    const admin = await t.app.inject({ url, headers: await t.bearer(1) });
    expect(admin.json().products.map((p: { id: number }) => p.id)).toContain(16);
    for (const headers of [{}, await t.bearer(2)]) {
      for (const spelling of [url, url.replace("%74rue", "true")]) {
        const reply = await t.app.inject({ url: spelling, headers });
        expect(reply.statusCode).toBe(200);
        expect(reply.json().products.map((p: { id: number }) => p.id)).not.toContain(16);
      }
    }
  });
});

describe("GET /api/products/:id", () => {
  it("replies one product, also out of stock", async () => {
    const reply = await t.app.inject({ url: "/api/products/16" });
    expect(reply.statusCode).toBe(200);
    expect(productSchema.parse(reply.json())).toMatchObject({
      id: 16,
      stock: 0,
      title: "HOTWEEMS D-09 Wireless Mouse for Laptop",
    });
  });
  it("404s unknown and retired products with the SPEC's message", async () => {
    const missing = await t.app.inject({ url: "/api/products/99999" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "Product Not Found!" });
    await t.database.db.update(products).set({ deletedAt: new Date() }).where(eq(products.id, 57));
    expect((await t.app.inject({ url: "/api/products/57" })).statusCode).toBe(404);
  });
  it("400s ids that aren't positive integers", async () => {
    for (const id of ["abc", "0", "-3", "1e3x", "99999999999"]) {
      const reply = await t.app.inject({ url: `/api/products/${id}` });
      expect(reply.statusCode, id).toBe(400);
      expect(reply.json().details[0].field).toBe("id");
    }
  });
});

describe("GET /api/categories, /api/networks, /api/sale", () => {
  it("lists the 16 categories in id order, with pictures", async () => {
    const all = (await t.app.inject({ url: "/api/categories" })).json();
    expect(all).toHaveLength(16);
    expect(all[0]).toMatchObject({ id: 1, name: "Computers" });
    expect(all[15]).toMatchObject({ id: 16, name: "Laptops" });
    expect(all.every((c: { image: string }) => c.image.startsWith("/illustrations/"))).toBe(true);
    const printers = (await t.app.inject({ url: "/api/categories?search=print" })).json();
    expect(printers.map((c: { name: string }) => c.name)).toEqual([
      "Printers",
      "Laser Printers",
      "Deskjet Printers",
    ]);
  });
  it("replies the networks as a one-element list", async () => {
    const networks = (await t.app.inject({ url: "/api/networks" })).json();
    expect(networks).toEqual([
      {
        facebook: "https://facebook.com/voltio.store",
        twitter: "",
        instagram: "https://instagram.com/voltio.store",
      },
    ]);
  });
  it("lists the 4 demo sales with their categories and products", async () => {
    const sales = (await t.app.inject({ url: "/api/sale" })).json();
    expect(sales.map((s: { day: string }) => s.day)).toEqual(["fri", "all", "sun", "thu"]);
    expect(sales[1].categories).toEqual([{ id: 6, name: "Mouse" }]);
    expect(sales[3].products).toEqual(
      [{ id: 15, title: "UBOTIE Colorful Bluetooth 100Keys Keyboard" }].map((p) => ({
        ...p,
        title: expect.stringContaining("UBOTIE"),
      })),
    );
    expect((await t.app.inject({ url: "/api/sale?limit=1" })).json()).toHaveLength(1);
    expect((await t.app.inject({ url: "/api/sale?limit=0" })).statusCode).toBe(400);
  });
});

describe("OpenAPI", () => {
  it("documents the catalogue from the zod schemas", async () => {
    const reply = await t.app.inject({ url: "/api/docs/json" });
    expect(reply.statusCode).toBe(200);
    const doc = reply.json();
    expect(doc.openapi).toMatch(/^3\./);
    const listing = doc.paths["/api/products"].get;
    expect(listing.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining([
        "search",
        "categoryId",
        "offset",
        "limit",
        "minPrice",
        "maxPrice",
        "freeShipping",
        "order",
      ]),
    );
    expect(doc.paths["/api/products/{id}"].get.responses["404"]).toBeDefined();
    expect((await t.app.inject({ url: "/api/docs" })).statusCode).toBeLessThan(400);
  });
});

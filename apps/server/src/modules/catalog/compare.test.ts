import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompareReply } from "@voltio/domain/compare";
import type { Product } from "@voltio/domain/catalog";
import { createTestApp, type TestContext } from "../../../test/app";

/** Compare and related products on the demo catalogue (issue 41, docs/product-rules.md §2.6, §2.11). */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("GET /api/compare", () => {
  it("puts two laptops' specifications side by side, marks what differs and the best value", async () => {
    // 58: HP Pavilion (16 GB, 512 GB), 55: HP 15.6' (8 GB, 128 GB).
    const reply = await t.app.inject({ url: "/api/compare?ids=58,55" });
    expect(reply.statusCode, reply.body).toBe(200);
    const compared = reply.json<CompareReply>();
    expect(compared.category).toEqual({ id: expect.any(Number), name: "Laptops" });
    expect(compared.products.map((product) => product.id)).toEqual([58, 55]);
    expect(compared.products[0]!.specs).toMatchObject({ ram_gb: 16, storage_gb: 512, screen_in: 15.6 });
    expect(compared.best).toMatchObject({ ram_gb: [58], storage_gb: [58] });
    expect(compared.best.screen_in).toBeUndefined();
    expect(compared.differs).toEqual(expect.arrayContaining(["ram_gb", "storage_gb", "cpu"]));
    expect(compared.differs).not.toContain("screen_in");
    expect(compared.attributes).toContainEqual({
      key: "ram_gb",
      label: "RAM",
      unit: "GB",
      type: "number",
      betterWhen: "higher",
    });
  });

  it("refuses products of no common category, more than 4, and unknown ones", async () => {
    const mixed = await t.app.inject({ url: "/api/compare?ids=58,11" });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toMatchObject({ details: [{ field: "ids" }] });
    expect((await t.app.inject({ url: "/api/compare?ids=53,54,55,56,58" })).statusCode).toBe(400);
    expect((await t.app.inject({ url: "/api/compare?ids=58,58" })).statusCode).toBe(400);
    expect((await t.app.inject({ url: "/api/compare?ids=58,99999" })).statusCode).toBe(404);
  });
});

describe("GET /api/products/:id/related", () => {
  it("gives a mouse mice before the keyboards it shares Peripheral with", async () => {
    const reply = await t.app.inject({ url: "/api/products/11/related" });
    expect(reply.statusCode, reply.body).toBe(200);
    const related = reply.json<{ products: Product[] }>().products;
    expect(related.map((product) => product.id)).not.toContain(11);
    const isMouse = (product: Product) => product.categories.some((category) => category.name === "Mouse");
    const firstOther = related.findIndex((product) => !isMouse(product));
    const lastMouse = related.map(isMouse).lastIndexOf(true);
    // The demo's other mice for sale: seenda, the wired gaming mouse and the MX Master.
    expect(lastMouse).toBe(2);
    expect(firstOther === -1 || firstOther > lastMouse).toBe(true);
    // Among mice, Logitech's come first.
    expect(related[0]!.brand?.slug).toBe("logitech");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_MAX_LENGTH } from "@voltio/domain/catalog";
import { createTestApp, type TestContext } from "../../../test/app";

/**
 * Point 5: a search too long is refused at once with the field and the reason, and the storefront's
 * menus (withProducts) list only categories with a product for sale, following every product change.
 */
let t: TestContext;
let admin: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.bearer(1);
});
afterAll(() => t.close());

describe("GET /api/products?search= longer than the API takes", () => {
  it("answers 400 naming the field and the limit, for 101 and for 1,200 characters", async () => {
    for (const length of [SEARCH_MAX_LENGTH + 1, 1200]) {
      const reply = await t.app.inject({ url: `/api/products?search=${"a".repeat(length)}&offset=1` });
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toEqual({
        error: `search: must be at most ${SEARCH_MAX_LENGTH} characters`,
        details: [{ field: "search", reason: `must be at most ${SEARCH_MAX_LENGTH} characters` }],
      });
    }
  });

  it("takes exactly the limit, and spaces around the text do not count", async () => {
    const search = `  ${"a".repeat(SEARCH_MAX_LENGTH)}  `;
    const reply = await t.app.inject({ url: `/api/products?search=${encodeURIComponent(search)}` });
    expect(reply.statusCode, reply.body).toBe(200);
  });
});

describe("GET /api/categories?withProducts=true", () => {
  const names = async (query = "") =>
    (await t.app.inject({ url: `/api/categories${query}` }))
      .json<{ name: string }[]>()
      .map((category) => category.name);
  const shopNames = () => names("?withProducts=true");
  const payload = (overrides: Record<string, unknown>) => ({
    title: "Camera drone",
    name: "Quadcopter",
    price: 120,
    shippingCost: 5,
    description: "Flies. Films.",
    stock: 4,
    images: ["https://img.example/drone.png"],
    categories: ["Drones"],
    ...overrides,
  });
  const save = async (method: "POST" | "PUT", url: string, overrides: Record<string, unknown> = {}) => {
    const reply = await t.app.inject({ method, url, headers: admin, payload: payload(overrides) });
    expect(reply.statusCode, reply.body).toBeLessThan(300);
    return reply.json<{ id: number }>();
  };

  it("lists the demo's stocked categories, and rejects a withProducts that is not true or false", async () => {
    expect(await shopNames()).toEqual(await names());
    expect((await t.app.inject({ url: "/api/categories?withProducts=yes" })).statusCode).toBe(400);
  });

  it("leaves out a category once its last product is sold out, moved or retired; the full list keeps it", async () => {
    const { id } = await save("POST", "/api/products");
    expect(await shopNames()).toContain("Drones");

    await save("PUT", `/api/products/${id}`, { stock: 0 });
    expect(await shopNames()).not.toContain("Drones");
    expect(await names()).toContain("Drones");

    await save("PUT", `/api/products/${id}`, { categories: ["Gadgets"] });
    expect(await shopNames()).toEqual(expect.arrayContaining(["Gadgets"]));
    expect(await shopNames()).not.toContain("Drones");

    const retired = await t.app.inject({ method: "DELETE", url: `/api/products/${id}`, headers: admin });
    expect(retired.statusCode).toBe(200);
    expect(await shopNames()).not.toContain("Gadgets");
    expect(await names()).toEqual(expect.arrayContaining(["Drones", "Gadgets"]));
  });

  it("filters a name search the same way", async () => {
    expect(await names("?search=gad&withProducts=true")).toEqual([]);
    expect(await names("?search=gad")).toEqual(["Gadgets"]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_ORDERS_LIST_MAX } from "@voltio/domain/admin-orders";
import type { Product } from "@voltio/domain/catalog";
import { createTestApp, type TestContext } from "../../test/app";
import { shop, type Headers, type Shop } from "../../test/shop";

/**
 * Issue 25 point 1: the shapes SPEC's own client sends and reads. It sends back what GET gave it — pictures
 * as `{url, altText}`, categories as `{id, name}`, a sale's products and categories as the objects it picked —
 * reads bulk orders' lines under GET /order, and reads the admin's orders as a plain list.
 */
let t: TestContext;
let store: Shop;
let admin: Headers;
beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
  admin = await t.bearer(1);
});
afterAll(() => t.close());

const product = async (id: number) => (await t.app.inject({ url: `/api/products/${id}` })).json<Product>();
const refusal = (reply: { statusCode: number; json: () => unknown }) => {
  expect(reply.statusCode).toBe(400);
  return reply.json() as { error: string; details: { field: string; reason: string }[] };
};

describe("product writes take what GET returned", () => {
  it("edits a product sent back with its pictures and categories as objects, and creates one with {id, name}", async () => {
    const before = await product(2);
    const { id: _id, ...fields } = before;
    const edited = await t.app.inject({
      method: "PUT",
      url: "/api/products/2",
      headers: admin,
      payload: { ...fields, title: "Edited by the SPEC client" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const after = await product(2);
    expect(after.title).toBe("Edited by the SPEC client");
    expect(after.images.map((image) => image.url)).toEqual(before.images.map((image) => image.url));
    expect(after.categories).toEqual(before.categories);

    const created = await t.app.inject({
      method: "POST",
      url: "/api/products",
      headers: admin,
      payload: {
        ...fields,
        title: "Created by the SPEC client",
        images: [{ url: "https://img.example/a.png" }, "https://img.example/b.png"],
        categories: [before.categories[0], "Brand new category"],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const made = await product(created.json<{ id: number }>().id);
    expect(made.images.map((image) => image.url)).toEqual([
      "https://img.example/a.png",
      "https://img.example/b.png",
    ]);
    expect(made.categories.map((category) => category.name)).toEqual([
      before.categories[0]!.name,
      "Brand new category",
    ]);
  });

  it("refuses a bad picture or category in either shape with the field and the reason", async () => {
    const { id: _id, ...fields } = await product(3);
    const send = (changes: Record<string, unknown>) =>
      t.app.inject({
        method: "PUT",
        url: "/api/products/3",
        headers: admin,
        payload: { ...fields, ...changes },
      });
    for (const [changes, field, reason] of [
      [
        { images: [{ url: "javascript:alert(1)" }] },
        "images.0.url",
        "must be an http(s) address or an uploaded image",
      ],
      [
        { images: ["ftp://example.com/a.png"] },
        "images.0",
        "must be an http(s) address or an uploaded image",
      ],
      [{ categories: [{ id: 1, name: " " }] }, "categories.0.name", "enter the categories please"],
      [{ categories: [""] }, "categories.0", "enter the categories please"],
    ] as const) {
      expect(refusal(await send(changes)).details[0]).toEqual({ field, reason });
    }
    // Neither a name nor an object with one.
    expect(refusal(await send({ categories: [7] })).details[0]!.field).toBe("categories.0");
  });
});

describe("sale writes take the products and categories picked", () => {
  it("binds a sale to the objects the client picked, on create and on update", async () => {
    const picked = await product(4);
    const sale = {
      description: "Picked things",
      percentage: "15",
      day: "monday",
      productAmount: "0",
      image: "",
      products: [picked],
      categories: [picked.categories[0]],
    };
    const created = await t.app.inject({ method: "POST", url: "/api/sale", headers: admin, payload: sale });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: number }>();
    const listed = () =>
      t.app
        .inject({ url: "/api/sale" })
        .then((reply) =>
          reply.json<{ id: number; products: { id: number }[]; categories: { id: number }[] }[]>(),
        )
        .then((all) => all.find((one) => one.id === id)!);
    expect((await listed()).products.map((one) => one.id)).toEqual([4]);
    expect((await listed()).categories.map((one) => one.id)).toEqual([picked.categories[0]!.id]);

    const updated = await t.app.inject({
      method: "PUT",
      url: "/api/sale",
      headers: admin,
      payload: { ...sale, id, products: [{ id: 5, title: "whatever it said" }, 6], categories: [] },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await listed()).products.map((one) => one.id).sort()).toEqual([5, 6]);

    const bad = await t.app.inject({
      method: "POST",
      url: "/api/sale",
      headers: admin,
      payload: { ...sale, products: [{ id: "seven" }] },
    });
    expect(refusal(bad).details[0]!.field).toBe("products.0.id");
  });
});

describe("orders as SPEC's client reads them", () => {
  it("lists a bulk order's lines under GET /order with their bulkOrderId, beside single purchases", async () => {
    const me = await store.newShopper();
    const [a, b, c] = [await store.newProduct(), await store.newProduct(), await store.newProduct()];
    const { bulkId, lineIds: lines } = await store.buyAll(me, [
      [a, 1],
      [b, 1],
    ]);
    const single = await store.buyNow(me, c);

    const pending = await t.app.inject({ url: "/api/order?status=pending", headers: me });
    expect(pending.statusCode, pending.body).toBe(200);
    const byLine = new Map(
      pending
        .json<{ id: number; orders: { id: number; bulkOrderId: number | null }[] }[]>()
        .flatMap((one) => one.orders.map((line) => [line.id, line.bulkOrderId] as const)),
    );
    expect(Object.fromEntries(byLine)).toEqual({ [lines[0]!]: bulkId, [lines[1]!]: bulkId, [single]: null });
  });

  it("answers the admin's order list as SPEC's list without a page, and as a page with one", async () => {
    const listed = await t.app.inject({ url: "/api/order/admin/bulk", headers: admin });
    expect(listed.statusCode, listed.body).toBe(200);
    const list = listed.json<{ id: number; kind: string; serverPurchaseDate: string | null }[]>();
    expect(Array.isArray(list)).toBe(true);
    expect(list.length).toBeGreaterThan(2);
    expect(list.length).toBeLessThanOrEqual(ADMIN_ORDERS_LIST_MAX);

    const paged = await t.app.inject({ url: "/api/order/admin/bulk?page=1&limit=2", headers: admin });
    const page = paged.json<{ orders: unknown[]; page: number; total: number }>();
    expect(page).toMatchObject({ page: 1, total: list.length });
    // The list is the pages in order: newest first.
    expect(page.orders).toEqual(list.slice(0, 2));
  });

  it("documents each shape in the OpenAPI document", async () => {
    const document = (await t.app.inject({ url: "/api/docs/json" })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const text = (path: string, method: string) => JSON.stringify(document.paths[path]?.[method]);
    expect(text("/api/products/{id}", "put")).toMatch(/"images".*"anyOf"/);
    expect(text("/api/sale", "post")).toMatch(/"products".*"anyOf"/);
    expect(text("/api/order", "get")).toContain('"bulkOrderId"');
    expect(text("/api/order/admin/bulk", "get")).toMatch(/"anyOf"/);
  });
});

import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PRODUCT_IMAGE, PRODUCT_MESSAGES } from "@voltio/domain/admin";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { auditLog, categories, orders, products } from "../../db/schema";

/**
 * Products in the back office: admin only, the SPEC's messages, categories by
 * name, the placeholder picture, retirement instead of deletion, the audit log, and a storefront (carts
 * included) that shows every change on the next request.
 */
let t: TestContext;
let store: Shop;
let admin: Headers;
let serial = 0;

const product = (overrides: Record<string, unknown> = {}) => ({
  title: `Drone ${++serial}`,
  name: "Quadcopter",
  price: 120,
  shippingCost: 5,
  description: "Flies. Films.",
  stock: 4,
  images: ["https://img.example/drone.png", "/uploads/drone-2.webp"],
  categories: ["Drones"],
  ...overrides,
});

const create = (payload: Record<string, unknown>, headers = admin) =>
  t.app.inject({ method: "POST", url: "/api/products", headers, payload });
const update = (id: number, payload: Record<string, unknown>, headers = admin) =>
  t.app.inject({ method: "PUT", url: `/api/products/${id}`, headers, payload });
const remove = (id: number, headers = admin) =>
  t.app.inject({ method: "DELETE", url: `/api/products/${id}`, headers });

async function created(overrides: Record<string, unknown> = {}): Promise<{ id: number; price: number }> {
  const reply = await create(product(overrides));
  expect(reply.statusCode, reply.body).toBe(201);
  return reply.json();
}

const auditOf = (action: string, id: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(id))));

beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
  admin = await t.bearer(1);
});
afterAll(() => t.close());

describe("who may change products", () => {
  it("guests get 401, shoppers 403, admins 201 / 200 / 200", async () => {
    const shopper = await store.newShopper({ address: false });
    const id = (await created()).id;
    for (const [headers, expected] of [
      [{}, [401, 401, 401]],
      [shopper, [403, 403, 403]],
      [admin, [201, 200, 200]],
    ] as const) {
      const replies = [
        await create(product(), headers),
        await update(id, product(), headers),
        await remove(id, headers),
      ];
      expect(replies.map((reply) => reply.statusCode)).toEqual(expected);
    }
  });
});

describe("POST /products", () => {
  it("answers the product as GET /products/:id shows it, money in cents inside, images in order", async () => {
    const body = await created({ price: "31.50", shippingCost: "7", stock: "12" });
    const shown = await t.app.inject({ url: `/api/products/${body.id}` });
    expect(body).toEqual(shown.json());
    expect(body).toMatchObject({
      price: 31.5,
      shippingCost: 7,
      stock: 12,
      images: [
        { url: "https://img.example/drone.png", altText: expect.stringContaining("picture 1") },
        { url: "/uploads/drone-2.webp", altText: expect.stringContaining("picture 2") },
      ],
      sales: { productSales: [], categorySales: [] },
      rating: { average: 0, count: 0 },
      // Ended in '. ': a client that drops the last fragment at '. ' (docs/product-rules.md §1) keeps 'Films'.
      description: "Flies. Films. ",
    });
    const [row] = await t.database.db.select().from(products).where(eq(products.id, body.id));
    expect(row).toMatchObject({ priceCents: 3150, shippingCostCents: 700 });
  });

  it("gives a product without pictures the placeholder, which the server serves", async () => {
    const body = await created({ images: [] });
    expect(body).toMatchObject({ images: [{ url: DEFAULT_PRODUCT_IMAGE }] });
    expect((await t.app.inject({ url: DEFAULT_PRODUCT_IMAGE })).statusCode).toBe(200);
  });

  it("finds categories by name whatever the case, and creates a new one once", async () => {
    const first = await created({ categories: ["Robots", "mouse", "ROBOTS"] });
    const second = await created({ categories: ["robots"] });
    const named = await t.database.db
      .select()
      .from(categories)
      .where(sql`lower(${categories.name}) in ('robots', 'mouse')`);
    expect(named.map((category) => category.name).sort()).toEqual(["Mouse", "Robots"]);
    const robots = named.find((category) => category.name === "Robots")!;
    expect(robots.image).toMatch(/^\/illustrations\/category\/\w+\.svg$/);
    const mouse = named.find((category) => category.name === "Mouse")!;
    expect(first).toMatchObject({
      categories: [
        { id: mouse.id, name: "Mouse" },
        { id: robots.id, name: "Robots" },
      ],
    });
    expect(second).toMatchObject({ categories: [{ id: robots.id, name: "Robots" }] });
  });

  it("refuses with the SPEC's messages, field by field", async () => {
    for (const [field, value, reason] of [
      ["title", "", PRODUCT_MESSAGES.title],
      ["title", "   ", PRODUCT_MESSAGES.title],
      ["name", undefined, PRODUCT_MESSAGES.name],
      ["price", "", PRODUCT_MESSAGES.price],
      ["price", -1, PRODUCT_MESSAGES.negative],
      ["price", "-0.5", PRODUCT_MESSAGES.negative],
      ["price", "0x10", PRODUCT_MESSAGES.price],
      ["price", 1.005, "must have at most 2 decimals"],
      ["shippingCost", undefined, PRODUCT_MESSAGES.shippingCost],
      ["shippingCost", -3, PRODUCT_MESSAGES.negative],
      ["description", "", PRODUCT_MESSAGES.description],
      ["stock", undefined, PRODUCT_MESSAGES.stock],
      ["stock", -1, PRODUCT_MESSAGES.negative],
      ["stock", 1.5, "must be a whole number"],
      ["categories", [], PRODUCT_MESSAGES.categories],
      ["categories", [""], PRODUCT_MESSAGES.categories],
      ["images", "https://img.example/a.png", PRODUCT_MESSAGES.images],
    ] as const) {
      const reply = await create(product({ [field]: value }));
      expect(reply.statusCode, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(reply.json().details[0], `${field}=${JSON.stringify(value)}`).toEqual({
        field: field === "categories" && Array.isArray(value) && value.length ? "categories.0" : field,
        reason,
      });
    }
    const badImage = await create(product({ images: ["javascript:alert(1)"] }));
    expect(badImage.json().details[0]).toEqual({
      field: "images.0",
      reason: "must be an http(s) address or an uploaded image",
    });
    const title = await create(product({ title: "" }));
    expect(title.json().details).toEqual([{ field: "title", reason: "enter the title please" }]);
  });
});

describe("PUT /products/:id", () => {
  it("replaces every field; a demo product sent back as the edit form has it passes unchanged", async () => {
    const { id } = await created();
    const reply = await update(id, product({ title: "Renamed", images: [], categories: ["Cameras"] }));
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toMatchObject({
      id,
      title: "Renamed",
      images: [{ url: DEFAULT_PRODUCT_IMAGE }],
      categories: [{ name: "Cameras" }],
    });

    const demo = (await t.app.inject({ url: "/api/products/3" })).json<{
      images: { url: string }[];
      categories: { name: string }[];
    }>();
    const asForm = {
      ...demo,
      images: demo.images.map((image) => image.url),
      categories: demo.categories.map((category) => category.name),
    };
    const resent = await update(3, asForm);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toEqual({ ...demo, rating: resent.json().rating });
  });

  it("shows a new price on the next request: listing, product page and a shopper's cart line", async () => {
    const reply = await create(product({ price: 100, categories: ["Price test"] }));
    const {
      id,
      categories: [category],
    } = reply.json<{ id: number; categories: { id: number }[] }>();
    const shopper = await store.newShopper({ address: false });
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/order",
          headers: shopper,
          payload: { status: "inCart", productId: id },
        })
      ).statusCode,
    ).toBe(201);
    const listing = `/api/products?categoryId=${category!.id}`;
    const cartLine = async () =>
      (await t.app.inject({ url: "/api/order?status=inCart", headers: shopper }))
        .json<{ id: number; price: number; orders: { unitPrice: number }[] }[]>()
        .find((line) => line.id === id)!;
    // Warm every cache first.
    for (let i = 0; i < 2; i++) {
      await t.app.inject({ url: listing });
      await t.app.inject({ url: `/api/products/${id}` });
      await cartLine();
    }
    expect((await t.app.inject({ url: listing })).json().products[0].price).toBe(100);
    expect((await t.app.inject({ url: `/api/products/${id}` })).headers["x-cache"]).toBe("hit");

    expect((await update(id, product({ price: 80, categories: ["Price test"] }))).statusCode).toBe(200);
    const listed = (await t.app.inject({ url: listing })).json<{
      products: { id: number; price: number }[];
    }>();
    expect(listed.products).toMatchObject([{ id, price: 80 }]);
    expect((await t.app.inject({ url: `/api/products/${id}` })).json().price).toBe(80);
    expect(await cartLine()).toMatchObject({ price: 80, orders: [{ unitPrice: 80 }] });
  });

  it("answers 404 for an unknown or retired product", async () => {
    const { id } = await created();
    expect((await remove(id)).statusCode).toBe(200);
    for (const target of [id, 2_000_000_000]) {
      const reply = await update(target, product());
      expect(reply.statusCode).toBe(404);
      expect(reply.json()).toEqual({ error: "Product Not Found!" });
    }
  });
});

describe("DELETE /products/:id", () => {
  it("retires the product: gone from the store, still in the orders that bought it", async () => {
    const { id } = await created({ categories: ["Retire test"] });
    const shopper = await store.newShopper();
    const orderId = await store.buyNow(shopper, id);
    await t.database.db
      .update(orders)
      .set({ status: "finished", serverPurchaseDate: new Date() })
      .where(eq(orders.id, orderId));

    const reply = await remove(id);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toEqual({ msg: "Product deleted" });

    const shown = await t.app.inject({ url: `/api/products/${id}` });
    expect(shown.statusCode).toBe(404);
    expect(shown.json()).toEqual({ error: "Product Not Found!" });
    const asAdmin = await t.app.inject({
      url: `/api/products?search=${encodeURIComponent("Retire test")}&includeOutOfStock=true&limit=100`,
      headers: admin,
    });
    expect(asAdmin.json().products.map((p: { id: number }) => p.id)).not.toContain(id);

    const bought = await t.app.inject({ url: "/api/order?status=finished", headers: shopper });
    expect(bought.json()).toMatchObject([{ id, orders: [{ id: orderId, status: "finished" }] }]);

    for (const target of [id, 2_000_000_000]) {
      const again = await remove(target);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ error: "Product Not Found!" });
    }
  });
});

describe("the admin listing", () => {
  it("includes out-of-stock products for admins only", async () => {
    const reply = await create(product({ stock: 0, categories: ["Stockless"] }));
    const {
      id,
      categories: [category],
    } = reply.json<{ id: number; categories: { id: number }[] }>();
    const url = `/api/products?categoryId=${category!.id}&includeOutOfStock=true&limit=8&offset=1`;
    const listed = async (headers: Headers) =>
      (await t.app.inject({ url, headers })).json<{ products: { id: number }[] }>().products.map((p) => p.id);
    expect(await listed(admin)).toEqual([id]);
    expect(await listed({})).toEqual([]);
    expect(await listed(await store.newShopper({ address: false }))).toEqual([]);
  });
});

describe("the audit log", () => {
  it("records create, update and delete with who and the product before and after", async () => {
    const { id } = await created({ title: "Audited", price: 10, categories: ["Audit"] });
    expect(
      (await update(id, product({ title: "Audited", price: 12.5, categories: ["Audit"] }))).statusCode,
    ).toBe(200);
    expect((await remove(id)).statusCode).toBe(200);

    const [creation] = await auditOf("product.create", id);
    const [row] = await t.database.db.select().from(products).where(eq(products.id, id));
    // now() is the transaction's start: the same stamp on both rows means one transaction wrote both.
    expect(creation!.createdAt.getTime()).toBe(row!.createdAt.getTime());
    expect(creation).toMatchObject({
      actorId: 1,
      entity: "product",
      details: { before: null, after: { title: "Audited", price: 10, categories: ["Audit"] } },
    });
    const [change] = await auditOf("product.update", id);
    expect(change!.details).toMatchObject({ before: { price: 10 }, after: { price: 12.5 } });
    const [deletion] = await auditOf("product.delete", id);
    expect(deletion!.details).toMatchObject({ before: { title: "Audited", price: 12.5 }, after: null });
  });

  it("keeps text as the product got it: a lone surrogate is U+FFFD in both", async () => {
    const { id } = await created({ title: "Drone \ud800", description: "\udfff" });
    const [row] = await t.database.db.select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({ title: "Drone \ufffd", description: "\ufffd. " });
    const [creation] = await auditOf("product.create", id);
    expect(creation!.details).toMatchObject({ after: { title: "Drone \ufffd", description: "\ufffd. " } });
  });

  it("records nothing for a refused change", async () => {
    expect((await update(2_000_000_000, product())).statusCode).toBe(404);
    expect(await auditOf("product.update", 2_000_000_000)).toEqual([]);
  });
});

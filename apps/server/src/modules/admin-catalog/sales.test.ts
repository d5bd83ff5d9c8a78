import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SALE_MESSAGES } from "@voltio/domain/admin";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { auditLog, sales } from "../../db/schema";

/**
 * Sales in the back office: admin only, the SPEC's messages, bindings to known
 * categories and products, the audit log, and prices that follow a change on the next request.
 */
let t: TestContext;
let store: Shop;
let admin: Headers;

// A Monday: the demo's Friday and Thursday sales don't run, so prices move only by the sales made here.
const MONDAY = new Date("2026-11-23T15:00:00Z");

const sale = (overrides: Record<string, unknown> = {}) => ({
  description: "Monday madness (10 & more): deals",
  percentage: 25,
  day: "monday",
  productAmount: 0,
  image: "",
  categories: [],
  products: [],
  ...overrides,
});

const create = (payload: Record<string, unknown>, headers = admin) =>
  t.app.inject({ method: "POST", url: "/api/sale", headers, payload });
const update = (payload: Record<string, unknown>, headers = admin) =>
  t.app.inject({ method: "PUT", url: "/api/sale", headers, payload });
const remove = (id: number | string, headers = admin) =>
  t.app.inject({ method: "DELETE", url: `/api/sale?saleId=${id}`, headers });

async function created(overrides: Record<string, unknown>): Promise<{ id: number }> {
  const reply = await create(sale(overrides));
  expect(reply.statusCode, reply.body).toBe(201);
  return reply.json();
}

const auditOf = (action: string, id: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(id))));

beforeAll(async () => {
  t = await createTestApp({ now: () => MONDAY });
  store = shop(t);
  admin = await t.bearer(1);
});
afterAll(() => t.close());

describe("who may change sales", () => {
  it("guests get 401, shoppers 403, admins 201 / 200 / 200", async () => {
    const shopper = await store.newShopper({ address: false });
    const productId = await store.newProduct();
    const { id } = await created({ products: [productId] });
    for (const [headers, expected] of [
      [{}, [401, 401, 401]],
      [shopper, [403, 403, 403]],
      [admin, [201, 200, 200]],
    ] as const) {
      const replies = [
        await create(sale({ products: [productId] }), headers),
        await update({ ...sale({ products: [productId] }), id }, headers),
        await remove(id, headers),
      ];
      expect(replies.map((reply) => reply.statusCode)).toEqual(expected);
    }
  });
});

describe("POST /sale", () => {
  it("answers the sale as GET /sale lists it: the day stored as mon, bindings without repeats", async () => {
    const productId = await store.newProduct();
    const reply = await create(
      sale({ percentage: "7", productAmount: "2", categories: [6, 6], products: [productId, productId] }),
    );
    expect(reply.statusCode, reply.body).toBe(201);
    const body = reply.json<{ id: number }>();
    expect(body).toMatchObject({
      day: "mon",
      percentage: 7,
      productAmount: 2,
      categories: [{ id: 6, name: "Mouse" }],
      products: [{ id: productId }],
    });
    const listed = (await t.app.inject({ url: "/api/sale" })).json<{ id: number }[]>();
    expect(listed.find((listedSale) => listedSale.id === body.id)).toEqual(body);
    const [row] = await t.database.db.select().from(sales).where(eq(sales.id, body.id));
    expect(row!.day).toBe("mon");
  });

  it("refuses with the SPEC's messages", async () => {
    for (const [field, value, reason] of [
      ["description", "", SALE_MESSAGES.descriptionRequired],
      ["description", undefined, SALE_MESSAGES.descriptionRequired],
      ["description", "50% off!", SALE_MESSAGES.descriptionInvalid],
      ["percentage", "", SALE_MESSAGES.percentageRequired],
      ["percentage", undefined, SALE_MESSAGES.percentageRequired],
      ["percentage", "abc", SALE_MESSAGES.percentageInvalid],
      ["percentage", "12.5", SALE_MESSAGES.percentageInvalid],
      ["percentage", 0, "must be from 1 to 100"],
      ["percentage", 101, "must be from 1 to 100"],
      ["image", "ftp://images.example/sale.png", SALE_MESSAGES.imageInvalid],
      ["image", "javascript:alert(1)", SALE_MESSAGES.imageInvalid],
      ["day", "funday", "must be monday..sunday, mon..sun or all"],
      ["productAmount", -1, "must be at least 0"],
      ["productAmount", "1e3", "must be a number"],
    ] as const) {
      const reply = await create(sale({ [field]: value }));
      expect(reply.statusCode, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(reply.json().details[0], `${field}=${JSON.stringify(value)}`).toEqual({ field, reason });
    }
  });

  // Sales made by the tests are bound to products of their own: a global one would price every other test.
  it("accepts an http(s) image, an upload and a picture of the store's own", async () => {
    for (const image of [
      "https://images.example/sale.png",
      "/uploads/sale.webp",
      "/illustrations/category/mouse.svg",
    ]) {
      const products = [await store.newProduct()];
      expect((await create(sale({ image, products }))).json()).toMatchObject({ image });
    }
  });

  it("refuses unknown or retired products and unknown categories, naming the field", async () => {
    const retired = await store.newProduct();
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/products/${retired}`, headers: admin })).statusCode,
    ).toBe(200);
    for (const [payload, field, reason] of [
      [{ products: [2_000_000_000] }, "products", "unknown products: 2000000000"],
      [{ products: [1, retired] }, "products", `unknown products: ${retired}`],
      [{ categories: [6, 999_999] }, "categories", "unknown categories: 999999"],
    ] as const) {
      const reply = await create(sale(payload));
      expect(reply.statusCode).toBe(400);
      expect(reply.json().details).toEqual([{ field, reason }]);
    }
  });
});

describe("PUT /sale and DELETE /sale", () => {
  it("replace and delete by id; an unknown sale is a 404", async () => {
    const [a, b] = [await store.newProduct(), await store.newProduct()];
    const { id } = await created({ products: [a] });
    const changed = await update({
      ...sale({ percentage: 30, day: "all", products: [b], categories: [5] }),
      id,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      id,
      percentage: 30,
      day: "all",
      products: [{ id: b }],
      categories: [{ id: 5, name: "Keyboards" }],
    });

    expect((await remove(id)).json()).toEqual({ msg: "Sale deleted" });
    expect((await t.app.inject({ url: "/api/sale" })).json().map((s: { id: number }) => s.id)).not.toContain(
      id,
    );
    for (const reply of [await remove(id), await update({ ...sale(), id }), await remove(2_000_000_000)]) {
      expect(reply.statusCode).toBe(404);
      expect(reply.json()).toEqual({ error: "Sale Not Found" });
    }
    expect((await remove("abc")).json().details).toEqual([{ field: "saleId", reason: "must be a number" }]);
  });
});

describe("prices across the store", () => {
  it("follow a new, changed or deleted sale on the next request: listing, product page, global sales, cart", async () => {
    const productId = await store.newProduct({ priceCents: 10_000 });
    const shopper = await store.newShopper({ address: false });
    await t.app.inject({
      method: "POST",
      url: "/api/order",
      headers: shopper,
      payload: { status: "inCart", productId },
    });
    const listing = async () =>
      (await t.app.inject({ url: "/api/products?limit=1000&order=DESC" })).json<{
        products: { id: number; sales: { productSales: { id: number; percentage: number }[] } }[];
        globalSales: { id: number }[];
      }>();
    const page = async () => (await t.app.inject({ url: `/api/products/${productId}` })).json();
    const cartLine = async () =>
      (await t.app.inject({ url: "/api/order?status=inCart", headers: shopper }))
        .json<{ id: number; orders: { unitPrice: number; salePercentage: number | null }[] }[]>()
        .find((line) => line.id === productId)!.orders[0];
    // Warm the caches.
    await listing();
    await page();
    expect(await cartLine()).toMatchObject({ unitPrice: 100, salePercentage: null });

    const { id } = await created({ percentage: 20, products: [productId] });
    const listed = (await listing()).products.find((product) => product.id === productId)!;
    expect(listed.sales.productSales).toEqual([{ id, percentage: 20, day: "mon", productAmount: 0 }]);
    expect((await page()).sales.productSales).toMatchObject([{ id, percentage: 20 }]);
    expect(await cartLine()).toMatchObject({ unitPrice: 80, salePercentage: 20 });

    expect((await update({ ...sale({ percentage: 50, products: [productId] }), id })).statusCode).toBe(200);
    expect(await cartLine()).toMatchObject({ unitPrice: 50, salePercentage: 50 });
    expect((await page()).sales.productSales).toMatchObject([{ id, percentage: 50 }]);

    expect((await remove(id)).statusCode).toBe(200);
    expect((await page()).sales.productSales).toEqual([]);
    expect(await cartLine()).toMatchObject({ unitPrice: 100, salePercentage: null });

    // A sale bound to nothing is global: every listing carries it at once.
    const global = await created({ percentage: 5 });
    expect((await listing()).globalSales.map((globalSale) => globalSale.id)).toContain(global.id);
    expect((await remove(global.id)).statusCode).toBe(200);
    expect((await listing()).globalSales.map((globalSale) => globalSale.id)).not.toContain(global.id);
  });
});

describe("the audit log", () => {
  it("records create, update and delete with who and the sale before and after, in the change's transaction", async () => {
    const productId = await store.newProduct();
    const { id } = await created({ percentage: 10, products: [productId] });
    expect((await update({ ...sale({ percentage: 15, categories: [6] }), id })).statusCode).toBe(200);
    expect((await remove(id)).statusCode).toBe(200);

    const [creation] = await auditOf("sale.create", id);
    expect(creation).toMatchObject({
      actorId: 1,
      entity: "sale",
      details: { before: null, after: { percentage: 10, day: "mon", products: [productId], categories: [] } },
    });
    const [change] = await auditOf("sale.update", id);
    expect(change!.details).toMatchObject({
      before: { percentage: 10, products: [productId] },
      after: { percentage: 15, products: [], categories: [6] },
    });
    const [deletion] = await auditOf("sale.delete", id);
    expect(deletion!.details).toMatchObject({ before: { percentage: 15, categories: [6] }, after: null });
  });

  it("records nothing when the change is refused midway, and the sale stays as it was", async () => {
    const { id } = await created({ percentage: 10, products: [await store.newProduct()] });
    const refused = await update({ ...sale({ percentage: 90, products: [2_000_000_000] }), id });
    expect(refused.statusCode).toBe(400);
    expect(await auditOf("sale.update", id)).toEqual([]);
    const [row] = await t.database.db.select().from(sales).where(eq(sales.id, id));
    expect(row!.percentage).toBe(10);
  });
});

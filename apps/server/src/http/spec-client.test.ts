import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_ORDERS_LIST_MAX } from "@voltio/domain/admin-orders";
import type { Product } from "@voltio/domain/catalog";
import { createTestApp, type TestContext } from "../../test/app";
import { SHOP_BASE_URL, shop, type Headers, type Shop } from "../../test/shop";
import { bulkOrders, orders } from "../db/schema";

/**
 * The shapes SPEC's own client sends and reads. It sends back what GET gave it — pictures
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

  it("takes the client's fallback picture, a path on its own site, and still refuses a dangerous one", async () => {
    const { id: _id, ...fields } = await product(5);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/products",
      headers: admin,
      payload: { ...fields, title: "Without a picture", images: ["/static/media/no-image.1234abcd.png"] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: number }>();
    expect((await product(id)).images.map((image) => image.url)).toEqual([
      "/static/media/no-image.1234abcd.png",
    ]);
    const edited = await t.app.inject({
      method: "PUT",
      url: `/api/products/${id}`,
      headers: admin,
      payload: { ...fields, images: [{ url: "static/media/x.png" }, "/static/media/no-image.1234abcd.png"] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // From the site's root, whichever page shows it.
    expect((await product(id)).images.map((image) => image.url)).toEqual([
      "/static/media/x.png",
      "/static/media/no-image.1234abcd.png",
    ]);

    for (const url of [
      "javascript:alert(1)",
      "//evil.com/x.png",
      "/static/../../etc/passwd.png",
      "static/media/../../x.png",
      "/uploads/../x.png",
      "static/%2e%2e/x.png",
      "..\\x.png",
      "data:image/png;base64,AAAA",
      "/static/media/x.html",
    ]) {
      for (const method of ["POST", "PUT"] as const) {
        const reply = await t.app.inject({
          method,
          url: method === "POST" ? "/api/products" : `/api/products/${id}`,
          headers: admin,
          payload: { ...fields, images: [url] },
        });
        expect(refusal(reply).details[0], `${method} ${url}`).toEqual({
          field: "images.0",
          reason: "must be an http(s) address or an uploaded image",
        });
      }
    }
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

  it("gives single orders of the admin's list SPEC's orders array, and bulk orders none", async () => {
    const me = await store.newShopper();
    const [a, b, c] = [await store.newProduct(), await store.newProduct(), await store.newProduct()];
    const { bulkId } = await store.buyAll(me, [
      [a, 1],
      [b, 1],
    ]);
    const single = await store.buyNow(me, c, 2);
    const userId = await store.userIdOf(me);

    const listed = await t.app.inject({ url: `/api/order/admin/bulk?userId=${userId}`, headers: admin });
    expect(listed.statusCode, listed.body).toBe(200);
    const rows = listed.json<
      {
        id: number;
        kind: string;
        price: number;
        title?: string;
        orders?: { id: number; userId: number; status: string; amount: number }[];
      }[]
    >();
    const singleRow = rows.find((row) => row.kind === "order")!;
    const bulkRow = rows.find((row) => row.kind === "bulk")!;
    // SPEC's client reads a row with `orders` as a single order: its date, status, price and title from it.
    expect(singleRow).toMatchObject({
      id: single,
      price: 20,
      title: expect.stringMatching(/^Shop test/),
      orders: [{ id: single, userId, status: "pending", amount: 2, serverPurchaseDate: expect.any(String) }],
    });
    expect(bulkRow.id).toBe(bulkId);
    expect(bulkRow).not.toHaveProperty("orders");
  });

  it("never moves a purchase of the other kind: an id names one kind, and the other kind's address says so", async () => {
    const me = await store.newShopper();
    const [a, b, c] = [await store.newProduct(), await store.newProduct(), await store.newProduct()];
    const { bulkId, lineIds } = await store.buyAll(me, [
      [a, 1],
      [b, 1],
    ]);
    const single = await store.buyNow(me, c);

    // No id is both a single order (or a line) and a bulk order, the demo store's included.
    const bulkIds = (await t.database.db.select({ id: bulkOrders.id }).from(bulkOrders)).map((row) => row.id);
    expect(
      await t.database.db.select({ id: orders.id }).from(orders).where(inArray(orders.id, bulkIds)),
    ).toEqual([]);

    const move = (url: string) =>
      t.app.inject({ method: "PUT", url, headers: admin, payload: { status: "cancelled" } });
    for (const [url, error] of [
      [`/api/order/bulk/${single}`, `Order Not Found: ${single} is a single order, not a bulk order`],
      [`/api/order/bulk/${lineIds[0]}`, `Order Not Found: ${lineIds[0]} is a line of bulk order ${bulkId}`],
      [`/api/order/${bulkId}`, `Order Not Found: ${bulkId} is a bulk order, not a single order`],
      [`/api/order/admin/${bulkId}`, `Order Not Found: ${bulkId} is a bulk order, not a single order`],
    ] as const) {
      const reply = await move(url);
      expect(reply.statusCode, url).toBe(404);
      expect(reply.json<{ error: string }>().error, url).toContain(error);
    }
    const [bulk] = await t.database.db.select().from(bulkOrders).where(eq(bulkOrders.id, bulkId));
    expect(bulk!.status).toBe("pending");
    expect((await store.orderOf(single)).status).toBe("pending");

    // Each at its own address moves as before.
    expect((await move(`/api/order/${single}`)).statusCode).toBe(200);
    expect((await move(`/api/order/bulk/${bulkId}`)).statusCode).toBe(200);
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

describe("products with options, to SPEC's client (issue 41)", () => {
  /** SPEC's product fields, as its client reads them: a product with options keeps every one of them. */
  const SPEC_FIELDS = [
    "id",
    "title",
    "name",
    "price",
    "shippingCost",
    "stock",
    "description",
    "images",
    "categories",
  ];

  it("keeps SPEC's fields of a product sold one way, and of one sold in variants, adding only new ones", async () => {
    const single = await product(await store.newProduct({ priceCents: 1999, stock: 4 }));
    const { productId } = await store.newProductWithVariants(
      [{ name: "Colour", values: ["Black", "White"] }],
      [
        { options: { Colour: "Black" }, priceCents: 2999, stock: 1 },
        { options: { Colour: "White" }, priceCents: 2499, stock: 2 },
      ],
    );
    const colours = await product(productId);
    for (const shown of [single, colours])
      expect(Object.keys(shown)).toEqual(expect.arrayContaining(SPEC_FIELDS));
    expect(single).toMatchObject({
      price: 19.99,
      stock: 4,
      options: [],
      variants: [{ options: {}, price: 19.99 }],
    });
    // Listed at its lowest price, with every unit of every variant.
    expect(colours).toMatchObject({ price: 24.99, stock: 3 });
  });

  it("puts a product id added to the cart on its default variant, and lists it as SPEC's lines", async () => {
    const me = await store.newShopper();
    const { productId, variantIds } = await store.newProductWithVariants(
      [{ name: "Memory", values: ["16 GB", "32 GB"] }],
      [
        { options: { Memory: "16 GB" }, priceCents: 99900, stock: 0 },
        { options: { Memory: "32 GB" }, priceCents: 119900, stock: 3 },
      ],
    );
    const added = await t.app.inject({
      method: "POST",
      url: "/api/order",
      headers: me,
      payload: { status: "inCart", productId, amount: 1 },
    });
    expect(added.statusCode, added.body).toBe(201);
    // The first variant with stock: 16 GB is sold out.
    expect(added.json()).toMatchObject({
      id: expect.any(Number),
      status: "inCart",
      amount: 1,
      productId,
      variantId: variantIds[1],
    });
    const cart = await t.app.inject({ url: "/api/order?status=inCart", headers: me });
    expect(cart.json()).toEqual([
      expect.objectContaining({
        id: productId,
        orders: [expect.objectContaining({ amount: 1, unitPrice: 1199 })],
      }),
    ]);
  });
});

describe("paying as SPEC's client does", () => {
  /** SPEC's pay call: the items it shows, a last pseudo item for the shipping, and the page's address. */
  const specPay = (headers: Headers) =>
    t.app.inject({
      method: "POST",
      url: "/api/mercadopago/pay",
      headers,
      payload: {
        items: [
          { title: "Whatever the page showed", amount: 1, price: 10 },
          { title: "shippingCost", amount: 1, price: 0 },
        ],
        baseURL: SHOP_BASE_URL,
      },
    });

  it("pays at /mercadopago/… with the default sandbox provider: its card page, then the feedback", async () => {
    expect(t.app.paymentProvider.name).toBe("sandbox");
    const me = await store.newShopper();
    const single = await store.buyNow(me, await store.newProduct());

    const started = await specPay(me);
    expect(started.statusCode, started.body).toBe(200);
    const { id, init_point } = started.json<{ id: string; init_point: string }>();
    expect(new URL(init_point).pathname).toBe(`/pay/sandbox/${id}`);
    const returned = await store.payWithCard(init_point);
    expect(returned.pathname).toBe("/purchase/success");

    const feedback = await t.app.inject({ url: `/api/mercadopago/feedback${returned.search}`, headers: me });
    expect(feedback.statusCode, feedback.body).toBe(200);
    expect(feedback.json()).toMatchObject({
      Status: "approved",
      Payment: returned.searchParams.get("payment_id"),
    });
    expect((await store.orderOf(single)).status).toBe("finished");
  });

  it("dates the purchases it settles as SPEC's client heads them, and keeps a date the client gave", async () => {
    const me = await store.newShopper();
    const [a, b, c, d] = [
      await store.newProduct(),
      await store.newProduct(),
      await store.newProduct(),
      await store.newProduct(),
    ];
    const { bulkId } = await store.buyAll(me, [
      [a, 1],
      [b, 1],
    ]);
    const single = await store.buyNow(me, c);
    // SPEC's Buy: a cart line put pending with the browser's Date().
    const carted = await t.app.inject({
      method: "POST",
      url: "/api/order",
      headers: me,
      payload: { status: "inCart", productId: d, amount: 1 },
    });
    const given = "Mon Nov 23 2026 10:00:00 GMT-0300 (Argentina Standard Time)";
    const pended = await t.app.inject({
      method: "PUT",
      url: `/api/order/${carted.json<{ id: number }>().id}`,
      headers: me,
      payload: { status: "pending", date: given },
    });
    expect(pended.statusCode, pended.body).toBe(200);
    await store.payPending(me);

    // Date()'s form: its first 24 characters head a group of the Purchases page.
    const asDate = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4} \(.+\)$/;
    const finished = await t.app.inject({ url: "/api/order?status=finished", headers: me });
    const dates = new Map(
      finished
        .json<{ id: number; orders: { id: number; localPurchaseDate: string | null }[] }[]>()
        .flatMap((one) => one.orders.map((line) => [one.id, line.localPurchaseDate] as const)),
    );
    expect([dates.get(a), dates.get(b), dates.get(c)]).toEqual([
      expect.stringMatching(asDate),
      expect.stringMatching(asDate),
      expect.stringMatching(asDate),
    ]);
    expect(dates.get(d)).toBe(given);
    expect((await store.orderOf(single)).localPurchaseDate).toMatch(asDate);
    const bulks = await t.app.inject({ url: "/api/order/bulk?status=finished", headers: me });
    expect(
      bulks.json<{ id: number; localPurchaseDate: string | null }[]>().find((one) => one.id === bulkId)!
        .localPurchaseDate,
    ).toMatch(asDate);
  });
});

describe("users as SPEC's client shows them", () => {
  const served = async (url: string) => {
    const reply = await t.app.inject({ url });
    expect(reply.statusCode, url).toBe(200);
    expect(reply.headers["content-type"], url).toMatch(/^image\/svg\+xml/);
    expect(reply.body).toMatch(/^<svg /);
  };

  it("gives an account without a picture an avatar the store serves, and keeps a picture of its own", async () => {
    const me = await store.newShopper();
    const mine = (await t.app.inject({ url: "/api/user", headers: me })).json<{ profilePicture: string }>();
    expect(mine.profilePicture).toBe("/illustrations/avatar/PT.svg");
    await served(mine.profilePicture);

    const all = await t.app.inject({ url: "/api/user/all", headers: admin });
    const pictures = all.json<{ profilePicture: string }[]>().map((user) => user.profilePicture);
    expect(pictures).not.toContain("");
    for (const picture of new Set(pictures)) await served(picture);

    // Any alphabet's initials; a name without a letter first gets a silhouette.
    const registered = await t.app.inject({
      method: "POST",
      url: "/api/user",
      payload: {
        firstName: "Élodie",
        lastName: "Ñandú",
        email: "elodie@voltio.test",
        password: "long-enough-1",
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const elodie = await t.app.inject({
      url: "/api/user",
      headers: await t.bearer(registered.json<{ id: number }>().id),
    });
    expect(elodie.json<{ profilePicture: string }>().profilePicture).toBe(
      `/illustrations/avatar/${encodeURIComponent("ÉÑ")}.svg`,
    );
    await served(elodie.json<{ profilePicture: string }>().profilePicture);
    await served("/illustrations/avatar/default.svg");
    for (const bad of ["ABC", "A1", "%3Cscript%3E", "default"])
      expect((await t.app.inject({ url: `/illustrations/avatar/${bad}.svg` })).statusCode, bad).toBe(
        bad === "default" ? 200 : 404,
      );

    const picture = "/uploads/0123456789abcdef0123456789abcdef.png";
    const changed = await t.app.inject({
      method: "PUT",
      url: "/api/user",
      headers: me,
      payload: { profilePicture: picture },
    });
    expect(changed.json<{ profilePicture: string }>().profilePicture).toBe(picture);
  });
});

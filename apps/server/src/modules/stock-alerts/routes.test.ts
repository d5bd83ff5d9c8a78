import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IN_STOCK } from "@voltio/domain/stock-alerts";
import { mailOutbox, productVariants, products, stockAlerts, stockHolds } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { notifyRestocked } from "./service";

/** Back-in-stock requests on a real database: the routes, the admin's restock, the sweep. */
let t: TestContext;
let s: Shop;
let admin: Headers;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: "https://shop.voltio.test" } });
  s = shop(t);
  admin = await t.bearer(1);
});
afterAll(() => t.close());

const alertUrl = (productId: number) => `/api/product/${productId}/stock-alert`;
const ask = (productId: number, headers: Headers) =>
  t.app.inject({ method: "PUT", url: alertUrl(productId), headers });
const cancel = (productId: number, headers: Headers) =>
  t.app.inject({ method: "DELETE", url: alertUrl(productId), headers });
const requested = async (productId: number, headers: Headers) => {
  const reply = await t.app.inject({ url: alertUrl(productId), headers });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ requested: boolean }>().requested;
};

/** The admin's edit form saving the product with this stock for sale (PUT /products/:id, as the back office). */
async function restock(productId: number, stock: number) {
  const product = (await t.app.inject({ url: `/api/products/${productId}` })).json<{
    title: string;
    name: string;
    price: number;
    shippingCost: number;
    description: string;
    categories: { name: string }[];
  }>();
  const reply = await t.app.inject({
    method: "PUT",
    url: `/api/products/${productId}`,
    headers: admin,
    payload: {
      title: product.title,
      name: product.name,
      price: product.price,
      shippingCost: product.shippingCost,
      description: product.description || "A thing",
      stock,
      categories: product.categories.length ? product.categories.map((c) => c.name) : ["Stock alerts"],
    },
  });
  expect(reply.statusCode, reply.body).toBe(200);
}

const mailsOf = (alertIds: number[]) =>
  Promise.all(
    alertIds.map((id) =>
      t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.dedupeKey, `stock-alert:${id}`)),
    ),
  );
const alertsOf = (productId: number) =>
  t.database.db.select().from(stockAlerts).where(eq(stockAlerts.productId, productId));

describe("PUT, GET, DELETE /api/product/:id/stock-alert", () => {
  it("takes a request for a sold-out product, once however often it is asked", async () => {
    const productId = await s.newProduct({ stock: 0 });
    const shopper = await s.newShopper({ address: false });
    expect(await requested(productId, shopper)).toBe(false);
    for (let i = 0; i < 2; i++) {
      const reply = await ask(productId, shopper);
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toEqual({ requested: true });
      expect(reply.headers["cache-control"]).toBe("no-store");
    }
    expect(await requested(productId, shopper)).toBe(true);
    expect(await alertsOf(productId)).toHaveLength(1);
    // Another shopper's request is theirs alone.
    expect(await requested(productId, await s.newShopper({ address: false }))).toBe(false);
  });

  it("refuses a product that can be bought right now (409 with the stock)", async () => {
    const productId = await s.newProduct({ stock: 3 });
    const reply = await ask(productId, await s.newShopper({ address: false }));
    expect(reply.statusCode).toBe(409);
    expect(reply.json()).toEqual({ error: IN_STOCK, stock: 3 });
    expect(await alertsOf(productId)).toEqual([]);
  });

  it("answers 404 for unknown and retired products", async () => {
    const shopper = await s.newShopper({ address: false });
    const retired = await s.newProduct({ stock: 0 });
    const deleted = await t.app.inject({ method: "DELETE", url: `/api/products/${retired}`, headers: admin });
    expect(deleted.statusCode, deleted.body).toBe(200);
    for (const productId of [999_999, retired]) {
      for (const reply of [
        await ask(productId, shopper),
        await cancel(productId, shopper),
        await t.app.inject({ url: alertUrl(productId), headers: shopper }),
      ]) {
        expect(reply.statusCode, reply.body).toBe(404);
        expect(reply.json()).toEqual({ error: "Product Not Found!" });
      }
    }
  });

  it("is for signed-in shoppers: 401 for a guest, 403 for an admin (admins can't buy), 400 for a bad id", async () => {
    const productId = await s.newProduct({ stock: 0 });
    for (const method of ["PUT", "DELETE", "GET"] as const) {
      expect((await t.app.inject({ method, url: alertUrl(productId) })).statusCode).toBe(401);
      expect((await t.app.inject({ method, url: alertUrl(productId), headers: admin })).statusCode).toBe(403);
      const bad = await t.app.inject({ method, url: alertUrl(0), headers: await t.bearer(2) });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe("id");
    }
    expect(await alertsOf(productId)).toEqual([]);
  });

  it("cancels a request (cancelling twice is fine)", async () => {
    const productId = await s.newProduct({ stock: 0 });
    const shopper = await s.newShopper({ address: false });
    await ask(productId, shopper);
    for (let i = 0; i < 2; i++) {
      const reply = await cancel(productId, shopper);
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toEqual({ requested: false });
    }
    expect(await requested(productId, shopper)).toBe(false);
  });
});

describe("the restock", () => {
  it("e-mails each request once when the admin restocks, and ends them; a cancelled one gets nothing", async () => {
    const productId = await s.newProduct({ stock: 0 });
    const [first, second, cancelled] = [
      await s.newShopper({ address: false }),
      await s.newShopper({ address: false }),
      await s.newShopper({ address: false }),
    ];
    for (const shopper of [first!, second!, cancelled!])
      expect((await ask(productId, shopper)).statusCode).toBe(200);
    await cancel(productId, cancelled!);
    // Saving the product still sold out sends nothing.
    await restock(productId, 0);
    const open = await alertsOf(productId);
    expect(open).toHaveLength(2);
    expect(open.every((alert) => alert.notifiedAt === null)).toBe(true);
    expect((await mailsOf(open.map((alert) => alert.id))).flat()).toEqual([]);

    await restock(productId, 5);
    const closed = await alertsOf(productId);
    expect(closed.every((alert) => alert.notifiedAt !== null)).toBe(true);
    const mails = await mailsOf(closed.map((alert) => alert.id));
    expect(mails.map((rows) => rows.length)).toEqual([1, 1]);
    const [mail] = mails[0]!;
    expect(mail!.subject).toContain("is back in stock");
    expect(mail!.textBody).toContain(`https://shop.voltio.test/product/${productId}`);
    expect(mail!.textBody).toContain("volvió a estar disponible");
    expect(await requested(productId, first!)).toBe(false);

    // Sold out and restocked again: the ended requests send nothing more.
    await restock(productId, 0);
    await restock(productId, 2);
    expect((await mailsOf(closed.map((alert) => alert.id))).map((rows) => rows.length)).toEqual([1, 1]);
    // A shopper may ask again once it sells out anew: a new request of its own.
    await restock(productId, 0);
    expect((await ask(productId, first!)).statusCode).toBe(200);
    expect(await alertsOf(productId)).toHaveLength(3);
  });

  it("follows what others can take: units held by a checkout count as gone until the hold expires", async () => {
    const productId = await s.newProduct({ stock: 1 });
    const buyer = await s.newShopper();
    await s.buyNow(buyer, productId);
    const pay = await t.app.inject({
      method: "POST",
      url: "/api/sandbox/pay",
      headers: buyer,
      payload: { baseURL: t.config.publicUrl },
    });
    expect(pay.statusCode, pay.body).toBe(200);
    // The last unit is held: sold out for everyone else.
    const waiting = await s.newShopper({ address: false });
    expect((await ask(productId, waiting)).statusCode).toBe(200);
    expect(await notifyRestocked(t.database.db, t.config.publicUrl)).toBe(0);
    // The buyer walked away: the hold runs out and the unit is for sale again.
    await t.database.db
      .update(stockHolds)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(stockHolds.productId, productId));
    expect(await notifyRestocked(t.database.db, t.config.publicUrl)).toBe(1);
    const [alert] = await alertsOf(productId);
    expect(alert!.notifiedAt).not.toBeNull();
    expect((await mailsOf([alert!.id]))[0]).toHaveLength(1);
  });

  it("sends once when two sweeps run at the same time", async () => {
    const productId = await s.newProduct({ stock: 0 });
    for (let i = 0; i < 5; i++) await ask(productId, await s.newShopper({ address: false }));
    // Restocked behind the sweep's back (SQL by hand): nothing has run yet.
    await t.database.db.update(products).set({ stock: 3 }).where(eq(products.id, productId));
    const [a, b] = await Promise.all([
      notifyRestocked(t.database.db, t.config.publicUrl),
      notifyRestocked(t.database.db, t.config.publicUrl),
    ]);
    expect(a + b).toBe(5);
    const alerts = await alertsOf(productId);
    expect((await mailsOf(alerts.map((alert) => alert.id))).map((rows) => rows.length)).toEqual([
      1, 1, 1, 1, 1,
    ]);
    expect(await notifyRestocked(t.database.db, t.config.publicUrl)).toBe(0);
  });

  it("ends an erased account's request without mail", async () => {
    const productId = await s.newProduct({ stock: 0 });
    const shopper = await s.newShopper({ address: false });
    await ask(productId, shopper);
    const [alert] = await alertsOf(productId);
    const erased = await t.app.inject({
      method: "DELETE",
      url: "/api/user/admin",
      headers: admin,
      payload: { id: alert!.userId },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    await restock(productId, 1);
    const [after] = await t.database.db.select().from(stockAlerts).where(eq(stockAlerts.id, alert!.id));
    expect(after?.notifiedAt ?? "cascaded").not.toBeNull();
    expect((await mailsOf([alert!.id]))[0]).toEqual([]);
  });
});

describe("a request for one variant of a product sold in several (issue 41)", () => {
  it("waits for the sold-out variant a shopper asked for, and links to it", async () => {
    const me = await s.newShopper();
    const colours = await s.newProductWithVariants(
      [{ name: "Colour", values: ["Black", "White"] }],
      [
        { options: { Colour: "Black" }, priceCents: 4999, stock: 2 },
        { options: { Colour: "White" }, priceCents: 5499, stock: 1 },
      ],
    );
    const [{ title }] = (await t.database.db
      .select({ title: products.title })
      .from(products)
      .where(eq(products.id, colours.productId))) as [{ title: string }];
    const [, white] = colours.variantIds as [number, number];
    const url = `/api/product/${colours.productId}/stock-alert?variantId=${white}`;
    const inStock = await t.app.inject({
      method: "PUT",
      url: `/api/product/${colours.productId}/stock-alert`,
      headers: me,
    });
    // Without a variant the request is for the default, Black, which can be bought.
    expect(inStock.statusCode).toBe(409);
    await t.database.db.update(productVariants).set({ stock: 0 }).where(eq(productVariants.id, white));
    const asked = await t.app.inject({ method: "PUT", url, headers: me });
    expect(asked.statusCode, asked.body).toBe(200);
    expect((await t.app.inject({ url, headers: me })).json()).toEqual({ requested: true });
    await t.database.db.update(productVariants).set({ stock: 4 }).where(eq(productVariants.id, white));
    expect(await notifyRestocked(t.database.db, t.config.publicUrl)).toBeGreaterThan(0);
    const mails = await t.database.db.select().from(mailOutbox);
    const told = mails.find(
      (mail) => mail.dedupeKey?.startsWith("stock-alert:") && mail.textBody.includes(title),
    );
    expect(told?.textBody).toContain(`${title} — White is back in stock`);
    expect(told?.textBody).toContain(`/product/${colours.productId}?variant=${white}`);
  });
});

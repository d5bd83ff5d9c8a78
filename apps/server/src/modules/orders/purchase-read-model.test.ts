import { eq, like } from "drizzle-orm";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminOrderPage } from "@voltio/domain/admin-orders";
import { checkoutIdOf } from "@voltio/domain/order-status";
import type { BuyAgainReply, Purchase, PurchaseSummary } from "@voltio/domain/purchase";
import { createTestApp, type TestContext } from "../../../test/app";
import { SHOP_BASE_URL, shop, type Headers, type Shop } from "../../../test/shop";
import { mailOutbox, orders, products, users } from "../../db/schema";

/**
 * After the purchase: the order page's API, tracking in the shipping e-mails, the
 * PDF receipt, "buy again" and the back office's order search, on the real app and database.
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

const getPurchase = (headers: Headers | undefined, number: string) =>
  t.app.inject({ url: `/api/order/purchases/${number}`, headers });

/** A shopper who bought a single line and a bulk order of two products in one payment. */
async function purchaseOfThree() {
  const headers = await store.newShopper();
  const [a, b, c] = [
    await store.newProduct({ priceCents: 1000, shippingCostCents: 500, stock: 10 }),
    await store.newProduct({ priceCents: 2550, shippingCostCents: 0, stock: 10 }),
    await store.newProduct({ priceCents: 999, shippingCostCents: 250, stock: 3 }),
  ];
  const single = await store.buyNow(headers, a, 2);
  const { bulkId } = await store.buyAll(headers, [
    [b, 1],
    [c, 2],
  ]);
  const { number } = await store.payPending(headers);
  return { headers, number, products: [a, b, c] as const, single, bulkId };
}

async function pdfText(pdf: Buffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, verbosity: 0 })
    .promise;
  const pages: string[] = [];
  for (let index = 1; index <= document.numPages; index++) {
    const content = await (await document.getPage(index)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await document.destroy();
  return pages.join("\n");
}

describe("GET /api/order/purchases/:number", () => {
  it("shows the buyer every line, the money, the address, the payment and each shipment's history", async () => {
    const { headers, number, products: ids, single, bulkId } = await purchaseOfThree();
    const reply = await getPurchase(headers, number);
    expect(reply.statusCode, reply.body).toBe(200);
    const purchase = reply.json<Purchase>();
    expect(purchase.number).toBe(number);
    expect(new Date(purchase.purchaseDate).getTime()).toBeLessThanOrEqual(Date.now());
    expect(
      purchase.lines.map((line) => [line.productId, line.amount, line.lineTotal, line.shipping]),
    ).toEqual([
      [ids[0], 2, 20, 5],
      [ids[1], 1, 25.5, 0],
      [ids[2], 2, 19.98, 2.5],
    ]);
    expect(purchase.lines[0]!.unitPrice).toBe(10);
    expect(purchase).toMatchObject({ products: 65.48, shipping: 7.5, total: 72.98 });
    expect(purchase.shippingAddress).toMatchObject({
      city: "Rosario",
      street: "Córdoba",
      streetNumber: 1234,
    });
    expect(purchase.payment).toMatchObject({ provider: "sandbox", amount: 72.98, refunded: 0 });
    expect(purchase.payment!.reference).toMatch(/\S/);
    expect(purchase.shipments).toEqual([
      expect.objectContaining({ kind: "order", id: single, status: "finished", orderIds: [single] }),
      expect.objectContaining({ kind: "bulk", id: bulkId, status: "finished" }),
    ]);
    for (const shipment of purchase.shipments)
      expect(shipment.events.map((event) => event.status)).toEqual(["finished"]);
    expect(purchase.refunds).toEqual([]);
  });

  it("shows a sale's percentage and its 'on Nth unit' units", async () => {
    const headers = await store.newShopper();
    const product = await store.newProduct({ priceCents: 1000, stock: 5 });
    const sale = await t.app.inject({
      method: "POST",
      url: "/api/sale",
      headers: admin,
      payload: {
        description: "Second unit",
        percentage: 50,
        day: "all",
        productAmount: 1,
        categories: [],
        products: [product],
      },
    });
    expect(sale.statusCode, sale.body).toBe(201);
    await store.buyNow(headers, product, 2);
    const { number } = await store.payPending(headers);
    const [line] = (await getPurchase(headers, number)).json<Purchase>().lines;
    expect(line).toMatchObject({ amount: 2, lineTotal: 15, sale: { percentage: 50, discountedUnits: 1 } });
  });

  it("is the buyer's and the admins' alone: anyone else, like an unknown number, is told it doesn't exist", async () => {
    const { headers, number } = await purchaseOfThree();
    const other = await store.newShopper();
    expect((await getPurchase(admin, number)).statusCode).toBe(200);
    const foreign = await getPurchase(other, number);
    const unknown = await getPurchase(other, "V-999999");
    expect([foreign.statusCode, unknown.statusCode]).toEqual([404, 404]);
    expect(foreign.json()).toEqual(unknown.json());
    expect((await getPurchase(headers, number.replace("V-", ""))).statusCode).toBe(200);
    for (const bad of ["V-", "abc", "V-00000000000000000", "0", "V-0"])
      expect((await getPurchase(headers, bad)).statusCode, bad).toBe(404);
    expect((await getPurchase(undefined, number)).statusCode).toBe(401);
  });

  it("lists the caller's purchases newest first with their total, statuses and pictures", async () => {
    const { headers, number } = await purchaseOfThree();
    const product = await store.newProduct({ priceCents: 500, stock: 5 });
    await store.buyNow(headers, product, 1);
    const second = (await store.payPending(headers)).number;
    const reply = await t.app.inject({ url: "/api/order/purchases", headers });
    expect(reply.statusCode, reply.body).toBe(200);
    const list = reply.json<PurchaseSummary[]>();
    expect(list.map((card) => card.number)).toEqual([second, number]);
    expect(list[1]).toMatchObject({ total: 72.98, units: 5, statuses: ["finished"] });
    expect(list[1]!.pictures).toHaveLength(3);
    // Another shopper sees none of them.
    const other = await t.app.inject({ url: "/api/order/purchases", headers: await store.newShopper() });
    expect(other.json()).toEqual([]);
  });
});

describe("tracking", () => {
  const ship = (kind: "order" | "bulk", id: number, payload: object) =>
    t.app.inject({
      method: "PUT",
      url: kind === "order" ? `/api/order/admin/${id}` : `/api/order/bulk/${id}`,
      headers: admin,
      payload,
    });
  const mailsOf = (kind: "order" | "bulk", id: number) =>
    t.database.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.dedupeKey, `order-status:${kind}:${id}:%`))
      .orderBy(mailOutbox.id);

  it("ships with a tracking number and carrier: the e-mail and the order page show them with the carrier's link", async () => {
    const { headers, number, single, bulkId } = await purchaseOfThree();
    const shipped = await ship("order", single, {
      status: "onDelivery",
      trackingNumber: "  1Z999AA10123456784 ",
      carrier: "UPS",
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    const link = "https://www.ups.com/track?tracknum=1Z999AA10123456784";
    const [mail] = await mailsOf("order", single);
    expect(mail!.textBody).toContain("Tracking number: 1Z999AA10123456784");
    expect(mail!.textBody).toContain("Carrier: UPS");
    expect(mail!.textBody).toContain(link);
    expect(mail!.textBody).toContain(`${SHOP_BASE_URL}/purchases/${number}`);

    // An unknown carrier: the number without a link.
    expect(
      (await ship("bulk", bulkId, { status: "onDelivery", trackingNumber: "AB-1", carrier: "Moto Juan" }))
        .statusCode,
    ).toBe(200);
    const purchase = (await getPurchase(headers, number)).json<Purchase>();
    const [line, bulk] = purchase.shipments;
    expect(line).toMatchObject({
      status: "onDelivery",
      trackingNumber: "1Z999AA10123456784",
      carrier: "UPS",
      trackingUrl: link,
    });
    expect(line!.events.map((event) => event.status)).toEqual(["finished", "onDelivery"]);
    expect(line!.events[1]).toMatchObject({ trackingNumber: "1Z999AA10123456784", trackingUrl: link });
    expect(bulk).toMatchObject({ trackingNumber: "AB-1", carrier: "Moto Juan", trackingUrl: null });

    // Delivered: the e-mail still names the parcel, and the history grows.
    expect((await ship("order", single, { status: "delivered" })).statusCode).toBe(200);
    const mails = await mailsOf("order", single);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toContain("delivered");
    expect(mails[1]!.textBody).toContain("1Z999AA10123456784");
    const after = (await getPurchase(headers, number)).json<Purchase>();
    expect(after.shipments[0]!.events.map((event) => event.status)).toEqual([
      "finished",
      "onDelivery",
      "delivered",
    ]);
  });

  it("takes a tracking number given after shipping, and mails it", async () => {
    const { single } = await purchaseOfThree();
    expect((await ship("order", single, { status: "onDelivery" })).statusCode).toBe(200);
    expect((await ship("order", single, { status: "onDelivery" })).statusCode).toBe(200);
    expect(await mailsOf("order", single)).toHaveLength(1);
    expect(
      (await ship("order", single, { status: "onDelivery", trackingNumber: "LATE1", carrier: "DHL" }))
        .statusCode,
    ).toBe(200);
    const mails = await mailsOf("order", single);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.textBody).toContain("LATE1");
  });

  it("refuses a tracking number that is too long or holds control characters, naming the field", async () => {
    const { single, bulkId } = await purchaseOfThree();
    for (const [kind, id, payload, field] of [
      ["order", single, { status: "onDelivery", trackingNumber: "x".repeat(65) }, "trackingNumber"],
      ["bulk", bulkId, { status: "onDelivery", trackingNumber: "a\u0000b" }, "trackingNumber"],
      ["bulk", bulkId, { status: "onDelivery", carrier: "c".repeat(41) }, "carrier"],
      ["order", single, { status: "onDelivery", carrier: 5 }, "carrier"],
    ] as const) {
      const reply = await ship(kind, id, payload);
      expect(reply.statusCode, reply.body).toBe(400);
      expect(reply.body).toContain(field);
    }
  });

  it("links the order page from the payment confirmation", async () => {
    const { number } = await purchaseOfThree();
    const [mail] = await store.confirmationsOf(checkoutIdOf(number)!);
    expect(mail!.textBody).toContain(`See your order: ${SHOP_BASE_URL}/purchases/${number}`);
  });
});

describe("GET /api/order/purchases/:number/receipt", () => {
  it("is a PDF with the number, the store, the buyer, the lines, the sale, the shipping and the total", async () => {
    const { headers, number, products: ids } = await purchaseOfThree();
    const reply = await t.app.inject({ url: `/api/order/purchases/${number}/receipt`, headers });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.headers["content-type"]).toBe("application/pdf");
    expect(reply.headers["content-disposition"]).toBe(`attachment; filename="receipt-${number}.pdf"`);
    expect(reply.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(reply.rawPayload);
    const titles = await t.database.db.select({ id: products.id, title: products.title }).from(products);
    for (const id of ids) expect(text).toContain(titles.find((row) => row.id === id)!.title);
    const [buyer] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.id, await store.userIdOf(headers)));
    for (const expected of [number, "Voltio", buyer!.email, "US$ 65.48", "US$ 7.50", "US$ 72.98", "sandbox"])
      expect(text).toContain(expected);
  });

  it("is the buyer's and the admins' alone", async () => {
    const { number } = await purchaseOfThree();
    const url = `/api/order/purchases/${number}/receipt`;
    expect((await t.app.inject({ url, headers: admin })).statusCode).toBe(200);
    expect((await t.app.inject({ url, headers: await store.newShopper() })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: "/api/order/purchases/V-999999/receipt", headers: admin })).statusCode,
    ).toBe(404);
  });
});

describe("POST /api/order/purchases/:number/buy-again", () => {
  const buyAgain = (headers: Headers, number: string) =>
    t.app.inject({ method: "POST", url: `/api/order/purchases/${number}/buy-again`, headers, payload: {} });
  const cartOf = async (headers: Headers) =>
    (
      await t.database.db
        .select({ productId: orders.productId, amount: orders.amount, status: orders.status })
        .from(orders)
        .where(eq(orders.userId, await store.userIdOf(headers)))
    ).filter((line) => line.status === "inCart");

  it("puts the products in the cart, capped at the stock, and says what is short or gone", async () => {
    const { headers, number, products: ids } = await purchaseOfThree();
    // Product c sold 2 of its 3: one left. Product b is retired. Product a: one already in the cart.
    await t.database.db.update(products).set({ deletedAt: new Date() }).where(eq(products.id, ids[1]));
    await t.app.inject({
      method: "POST",
      url: "/api/order",
      headers,
      payload: { status: "inCart", productId: ids[0], amount: 1 },
    });
    const reply = await buyAgain(headers, number);
    expect(reply.statusCode, reply.body).toBe(200);
    const body = reply.json<BuyAgainReply>();
    expect(body.added.map(({ productId, asked, added }) => [productId, asked, added])).toEqual([
      [ids[0], 2, 2],
      [ids[2], 2, 1],
    ]);
    expect(body.missing.map(({ productId, asked, added }) => [productId, asked, added])).toEqual([
      [ids[1], 1, 0],
      [ids[2], 2, 1],
    ]);
    expect((await cartOf(headers)).map((line) => [line.productId, line.amount]).sort()).toEqual(
      [
        [ids[0], 3],
        [ids[2], 1],
      ].sort(),
    );
    // Again: the cart already holds all there is of c.
    const again = (await buyAgain(headers, number)).json<BuyAgainReply>();
    expect(again.missing.find((line) => line.productId === ids[2])).toMatchObject({ added: 0 });
    expect((await cartOf(headers)).find((line) => line.productId === ids[2])!.amount).toBe(1);
  });

  it("is for the buyer: another shopper gets 404, an admin can't buy", async () => {
    const { number } = await purchaseOfThree();
    expect((await buyAgain(await store.newShopper(), number)).statusCode).toBe(404);
    expect((await buyAgain(admin, number)).statusCode).toBe(403);
  });
});

describe("GET /api/order/admin/bulk?search", () => {
  const search = async (text: string) => {
    const reply = await t.app.inject({
      url: `/api/order/admin/bulk?page=1&limit=100&search=${encodeURIComponent(text)}`,
      headers: admin,
    });
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json<AdminOrderPage>();
  };

  it("finds purchases by number, buyer name or e-mail, whatever the case", async () => {
    const { headers, number, single, bulkId } = await purchaseOfThree();
    const userId = await store.userIdOf(headers);
    await t.database.db
      .update(users)
      .set({ firstName: "Zoë", lastName: "O'Searchable_%" })
      .where(eq(users.id, userId));
    const [buyer] = await t.database.db.select().from(users).where(eq(users.id, userId));
    const ids = (page: AdminOrderPage) => page.orders.map((order) => `${order.kind}:${order.id}`).sort();
    const both = [`bulk:${bulkId}`, `order:${single}`];
    expect(ids(await search(number))).toEqual(both);
    expect(ids(await search(number.toLowerCase()))).toEqual(both);
    expect(ids(await search(String(checkoutIdOf(number)))).filter((id) => both.includes(id))).toEqual(both);
    expect(ids(await search("o'searchable_%"))).toEqual(both);
    expect(ids(await search("zoë o'search"))).toEqual(both);
    expect(ids(await search(buyer!.email.toUpperCase()))).toEqual(both);
    expect((await search("searchable_%x")).total).toBe(0);
    // % and _ are letters here, not wildcards.
    expect((await search("o'searchable__")).total).toBe(0);
    const bad = await t.app.inject({ url: "/api/order/admin/bulk?search=%00", headers: admin });
    expect(bad.statusCode).toBe(400);
  });
});

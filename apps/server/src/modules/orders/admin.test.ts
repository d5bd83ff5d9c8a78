import { and, desc, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_CSV_COLUMNS, type AdminOrder, type AdminOrderPage } from "@voltio/domain/admin-orders";
import { orderNumber } from "@voltio/domain/order-status";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { auditLog, bulkOrders, mailOutbox, orders, products, refunds } from "../../db/schema";
import { csvField, ordersCsv } from "./admin-export";

/**
 * The back office's orders: the list and its CSV export, and an admin moving any
 * shopper's purchase on — stock, e-mail and audit included — on the real app and database.
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

/** A single purchase of `amount` units, paid: its order id. */
async function paidOrder(headers: Headers, productId: number, amount = 1) {
  const id = await store.buyNow(headers, productId, amount);
  await store.payPending(headers);
  return id;
}

/** A bulk order of these cart lines ([productId, amount]), paid unless told: its id and its lines' ids. */
async function bulkOrder(headers: Headers, lines: [number, number][], { paid = true } = {}) {
  const { bulkId, lineIds } = await store.buyAll(headers, lines);
  if (paid) await store.payPending(headers);
  return { id: bulkId, lineIds };
}

const putOrder = (headers: Headers, id: number | string, payload: unknown) =>
  t.app.inject({ method: "PUT", url: `/api/order/${id}`, headers, payload: payload as object });
const putBulk = (headers: Headers, id: number | string, payload: unknown) =>
  t.app.inject({ method: "PUT", url: `/api/order/bulk/${id}`, headers, payload: payload as object });

/** The back office's paged list (without `page`, the reply is SPEC's plain list: http/spec-client.test.ts). */
async function adminList(query: string): Promise<AdminOrderPage> {
  const paged = query.includes("page=") ? query : `${query}&page=1`;
  const reply = await t.app.inject({ url: `/api/order/admin/bulk?${paged}`, headers: admin });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<AdminOrderPage>();
}

async function exportCsv(query: string) {
  const reply = await t.app.inject({ url: `/api/order/admin/export?${query}`, headers: admin });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply;
}

/** The status e-mails queued for one order (or bulk order). */
const statusMails = (kind: "order" | "bulk", id: number) =>
  t.database.db
    .select()
    .from(mailOutbox)
    .where(like(mailOutbox.dedupeKey, `order-status:${kind}:${id}:%`));

const auditOf = (entity: "order" | "bulkOrder", id: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, String(id))));

/** The stock the storefront shows (GET /products/:id, through the catalogue's cache). */
async function listedStock(productId: number) {
  const reply = await t.app.inject({ url: `/api/products/${productId}` });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ stock: number }>().stock;
}

/** The shopper's own view of their purchases (the /purchases screen's calls). */
async function shopperPurchases(headers: Headers) {
  const singles = await t.app.inject({
    url: "/api/order?status=pending,finished,preparing,onDelivery,delivered,cancelled",
    headers,
  });
  const bulks = await t.app.inject({ url: "/api/order/bulk", headers });
  expect(singles.statusCode, singles.body).toBe(200);
  expect(bulks.statusCode, bulks.body).toBe(200);
  return {
    lines: singles
      .json<{ orders: { id: number; status: string }[] }[]>()
      .flatMap((product) => product.orders),
    bulks: bulks.json<{ id: number; status: string }[]>(),
  };
}

describe("GET /api/order/admin/bulk", () => {
  it("lists every shopper's single and bulk purchases, newest first, paged on the server", async () => {
    const me = await store.newShopper();
    const meId = await store.userIdOf(me);
    const a = await store.newProduct({ priceCents: 1250, shippingCostCents: 300 });
    const b = await store.newProduct({ priceCents: 400, shippingCostCents: 100 });
    const c = await store.newProduct({ priceCents: 999, shippingCostCents: 0 });
    const single = await store.buyNow(me, a, 2);
    const { paymentId } = await store.payPending(me);
    const bulk = await bulkOrder(me, [
      [b, 1],
      [c, 3],
    ]);
    const unpaid = await store.buyNow(me, c);
    // A list line is no purchase: it never shows.
    await t.app.inject({
      method: "POST",
      url: "/api/order",
      headers: me,
      payload: { status: "inWishList", productId: a },
    });

    const all = await adminList(`userId=${meId}`);
    expect(all).toMatchObject({ page: 1, totalPages: 1, total: 3 });
    expect(all.orders.map((order) => [order.kind, order.id])).toEqual([
      ["order", unpaid],
      ["bulk", bulk.id],
      ["order", single],
    ]);
    const [pending, bulkRow, singleRow] = all.orders as [AdminOrder, AdminOrder, AdminOrder];
    expect(singleRow).toMatchObject({
      kind: "order",
      userId: meId,
      user: { id: meId, firstName: "Pay", lastName: "Test" },
      status: "finished",
      flag: null,
      price: 25,
      shippingCost: 3,
      purchaseId: paymentId,
      shippingAddress: { city: "Rosario", street: "Córdoba", streetNumber: 1234, postalCode: "2000" },
      products: [{ orderId: single, productId: a, amount: 2, price: 25 }],
    });
    expect(singleRow.combinedPrice).toBeUndefined();
    expect(singleRow.user.email).toMatch(/@voltio\.test$/);
    expect(singleRow.products[0]!.title).toMatch(/^Shop test/);
    expect(Date.parse(singleRow.serverPurchaseDate!)).not.toBeNaN();
    expect(bulkRow).toMatchObject({
      kind: "bulk",
      status: "finished",
      price: 33.97,
      combinedPrice: 33.97,
      shippingCost: 1,
      shippingAddress: { city: "Rosario" },
      products: [
        { orderId: bulk.lineIds[0], productId: b, amount: 1, price: 4 },
        { orderId: bulk.lineIds[1], productId: c, amount: 3, price: 29.97 },
      ],
    });
    expect(pending).toMatchObject({ kind: "order", status: "pending", purchaseId: null, price: 9.99 });

    const first = await adminList(`userId=${meId}&limit=2`);
    const second = await adminList(`userId=${meId}&limit=2&page=2`);
    expect(first).toMatchObject({ page: 1, totalPages: 2, total: 3 });
    expect(second).toMatchObject({ page: 2, totalPages: 2, total: 3 });
    expect([...first.orders, ...second.orders].map((order) => order.id)).toEqual(
      all.orders.map((order) => order.id),
    );
    expect((await adminList(`userId=${meId}&page=3&limit=2`)).orders).toEqual([]);

    const finished = await adminList(`userId=${meId}&status=finished`);
    expect(finished.total).toBe(2);
    expect(finished.orders.map((order) => order.kind)).toEqual(["bulk", "order"]);
    expect((await adminList(`userId=${meId}&status=pending`)).orders.map((order) => order.id)).toEqual([
      unpaid,
    ]);
    expect((await adminList(`userId=${meId}&status=cancelled`)).total).toBe(0);
    expect((await adminList(`userId=${meId}&flagged=true`)).total).toBe(0);
    expect((await adminList(`userId=${meId}&flagged=false`)).total).toBe(3);

    // Everyone's purchases without a user filter, this shopper's among them.
    const everyone = await adminList("limit=100");
    expect(everyone.total).toBeGreaterThanOrEqual(3);
    expect(new Set(everyone.orders.map((order) => order.userId)).size).toBeGreaterThan(1);
  });

  it("finds the orders flagged 'refund needed' or 'refunded'", async () => {
    const me = await store.newShopper();
    const meId = await store.userIdOf(me);
    await paidOrder(me, await store.newProduct());
    const retiredId = await store.newProduct();
    const gone = await store.buyNow(me, retiredId);
    // The product is retired while its buyer is on the card page: the payment can buy nothing.
    await store.payPending(me, {
      beforePaying: async () => {
        const retired = await t.app.inject({
          method: "DELETE",
          url: `/api/products/${retiredId}`,
          headers: admin,
        });
        expect(retired.statusCode, retired.body).toBe(200);
      },
      outcome: "refund_needed",
    });

    const flagged = await adminList(`userId=${meId}&flagged=true`);
    expect(flagged.orders.map((order) => [order.id, order.status, order.flag])).toEqual([
      [gone, "cancelled", "refund_needed"],
    ]);
    expect((await adminList(`userId=${meId}&flag=refund_needed`)).total).toBe(1);
    expect((await adminList(`userId=${meId}&flag=amount_mismatch`)).total).toBe(0);
    // Once the provider took the refund, the order says so.
    expect((await t.app.paymentsWorker.runOnce()).refunds).toBeGreaterThanOrEqual(1);
    expect((await adminList(`userId=${meId}&flag=refunded`)).total).toBe(1);
    expect((await adminList(`userId=${meId}`)).total).toBe(2);
    const everyFlagged = await adminList("flagged=true&limit=100");
    expect(everyFlagged.orders.every((order) => order.flag !== null)).toBe(true);
    expect(everyFlagged.orders.map((order) => order.id)).toContain(gone);
  });

  it("refuses guests and shoppers, and bad filters with the field", async () => {
    const me = await store.newShopper();
    for (const url of ["/api/order/admin/bulk", "/api/order/admin/export"]) {
      expect((await t.app.inject({ url })).statusCode).toBe(401);
      expect((await t.app.inject({ url, headers: me })).statusCode).toBe(403);
    }
    expect((await putBulk({}, 1, { status: "delivered" })).statusCode).toBe(401);
    expect((await putBulk(me, 1, { status: "delivered" })).statusCode).toBe(403);
    for (const [query, field] of [
      ["status=inCart", "status"],
      ["userId=abc", "userId"],
      ["userId=0x10", "userId"],
      ["flagged=yes", "flagged"],
      ["flag=stolen", "flag"],
      ["page=0", "page"],
    ]) {
      const reply = await t.app.inject({ url: `/api/order/admin/bulk?${query}`, headers: admin });
      expect(reply.statusCode, query).toBe(400);
      expect(reply.json().details[0].field, query).toBe(field);
    }
    const badExport = await t.app.inject({
      url: "/api/order/admin/export?status=inWishList",
      headers: admin,
    });
    expect(badExport.statusCode).toBe(400);
  });
});

describe("an admin changing an order's status", () => {
  it("moves another shopper's order on; the shopper sees it, gets an e-mail for the moves they care about", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct({ stock: 10 });
    const id = await paidOrder(me, productId, 2);
    expect(await store.stockOf(productId)).toBe(8);

    const preparing = await putOrder(admin, id, { status: "preparing" });
    expect(preparing.statusCode, preparing.body).toBe(200);
    expect(preparing.json()).toEqual({
      msg: "Order updated",
      removed: false,
      order: { id, status: "preparing", amount: 2, productId, variantId: await store.variantOf(productId) },
    });
    expect((await shopperPurchases(me)).lines).toContainEqual(
      expect.objectContaining({ id, status: "preparing" }),
    );
    expect(await statusMails("order", id)).toHaveLength(0);

    expect((await putOrder(admin, id, { status: "onDelivery" })).statusCode).toBe(200);
    const onTheWay = await statusMails("order", id);
    expect(onTheWay).toHaveLength(1);
    expect(onTheWay[0]!.recipient).toMatch(/@voltio\.test$/);
    // The purchase's one number, as on the result page and the confirmation.
    const { checkoutId } = await store.orderOf(id);
    expect(onTheWay[0]!.subject).toContain(`order ${orderNumber(checkoutId!)} is on its way`);
    expect(onTheWay[0]!.subject).toContain(`pedido ${orderNumber(checkoutId!)} está en camino`);
    const [product] = await t.database.db
      .select({ title: products.title })
      .from(products)
      .where(eq(products.id, productId));
    expect(onTheWay[0]!.textBody).toContain(`${product!.title} × 2`);

    expect((await putOrder(admin, id, { status: "delivered" })).statusCode).toBe(200);
    const mails = await statusMails("order", id);
    expect(mails).toHaveLength(2);
    expect(mails.map((mail) => mail.subject).join()).toContain("was delivered");
    expect((await shopperPurchases(me)).lines).toContainEqual(
      expect.objectContaining({ id, status: "delivered" }),
    );

    // The same status again changes nothing: no mail, no audit row.
    const again = await putOrder(admin, id, { status: "delivered" });
    expect(again.statusCode).toBe(200);
    expect(again.json().order.status).toBe("delivered");
    expect(await statusMails("order", id)).toHaveLength(2);

    // Back to finished: no mail either; the stock stays taken through paid statuses.
    expect((await putOrder(admin, id, { status: "finished" })).statusCode).toBe(200);
    expect(await statusMails("order", id)).toHaveLength(2);
    expect(await store.stockOf(productId)).toBe(8);

    const audit = await auditOf("order", id);
    expect(audit.map((row) => row.details)).toEqual([
      { before: { status: "finished" }, after: { status: "preparing" } },
      { before: { status: "preparing" }, after: { status: "onDelivery" } },
      { before: { status: "onDelivery" }, after: { status: "delivered" } },
      { before: { status: "delivered" }, after: { status: "finished" } },
    ]);
    expect(audit.every((row) => row.actorId === 1 && row.action === "order.status")).toBe(true);
    expect(await store.orderOf(id)).toMatchObject({ status: "finished" });
  });

  it("moves a single purchase on the back office's admin route, which shoppers can't call", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct({ stock: 10 });
    const id = await paidOrder(me, productId);
    const move = (headers: Headers, payload: unknown) =>
      t.app.inject({ method: "PUT", url: `/api/order/admin/${id}`, headers, payload: payload as object });
    expect((await move(me, { status: "delivered" })).statusCode).toBe(403);
    const moved = await move(admin, { status: "delivered" });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({
      msg: "Order updated",
      removed: false,
      order: { id, status: "delivered", amount: 1, productId, variantId: await store.variantOf(productId) },
    });
    const bad = await move(admin, { status: "inCart" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe("status");
  });

  it("moves a bulk order and all its lines; the shopper's bulk list shows it", async () => {
    const me = await store.newShopper();
    const a = await store.newProduct({ stock: 10 });
    const b = await store.newProduct({ stock: 10 });
    const bulk = await bulkOrder(me, [
      [a, 2],
      [b, 1],
    ]);
    const moved = await putBulk(admin, bulk.id, { status: "onDelivery" });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ msg: "Order updated", id: bulk.id, status: "onDelivery" });
    expect((await shopperPurchases(me)).bulks).toContainEqual(
      expect.objectContaining({ id: bulk.id, status: "onDelivery" }),
    );
    const lines = await t.database.db
      .select({ status: orders.status })
      .from(orders)
      .where(inArray(orders.id, bulk.lineIds));
    expect(lines.map((line) => line.status)).toEqual(["onDelivery", "onDelivery"]);
    const mails = await statusMails("bulk", bulk.id);
    expect(mails).toHaveLength(1);
    const [bulkRow] = await t.database.db
      .select({ checkoutId: bulkOrders.checkoutId })
      .from(bulkOrders)
      .where(eq(bulkOrders.id, bulk.id));
    expect(mails[0]!.subject).toContain(`order ${orderNumber(bulkRow!.checkoutId!)} is on its way`);
    expect(mails[0]!.textBody).toMatch(/× 2[\s\S]*× 1/);
    expect((await auditOf("bulkOrder", bulk.id)).map((row) => [row.action, row.details])).toEqual([
      ["bulkOrder.status", { before: { status: "finished" }, after: { status: "onDelivery" } }],
    ]);
    const [listed] = (await adminList(`userId=${await store.userIdOf(me)}`)).orders;
    expect(listed).toMatchObject({ kind: "bulk", id: bulk.id, status: "onDelivery" });
  });

  it("gives a cancelled order's stock back exactly once, even when admins cancel at the same time", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct({ stock: 10 });
    const id = await paidOrder(me, productId, 3);
    expect(await store.stockOf(productId)).toBe(7);
    // The catalogue's reply cache holds the product now: the cancel must let it go.
    expect(await listedStock(productId)).toBe(7);
    expect(await listedStock(productId)).toBe(7);

    const replies = await Promise.all([
      putOrder(admin, id, { status: "cancelled" }),
      putOrder(admin, id, { status: "cancelled" }),
      putOrder(await t.bearer(1), id, { status: "cancelled" }),
    ]);
    expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200, 200]);
    expect(await store.stockOf(productId)).toBe(10);
    expect(await listedStock(productId)).toBe(10);
    expect(await auditOf("order", id)).toHaveLength(1);
    const mails = await statusMails("order", id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain("was cancelled");
    expect(mails[0]!.textBody).toContain("refund");
    expect((await shopperPurchases(me)).lines).toContainEqual(
      expect.objectContaining({ id, status: "cancelled" }),
    );

    // A bulk order's units, summed per product, come back once too.
    const a = await store.newProduct({ stock: 10 });
    const b = await store.newProduct({ stock: 10 });
    const bulk = await bulkOrder(me, [
      [a, 4],
      [b, 1],
    ]);
    expect([await store.stockOf(a), await store.stockOf(b)]).toEqual([6, 9]);
    const bulkReplies = await Promise.all(
      Array.from({ length: 3 }, () => putBulk(admin, bulk.id, { status: "cancelled" })),
    );
    expect(bulkReplies.map((reply) => reply.statusCode)).toEqual([200, 200, 200]);
    expect([await store.stockOf(a), await store.stockOf(b)]).toEqual([10, 10]);
    expect(await auditOf("bulkOrder", bulk.id)).toHaveLength(1);
    expect(await statusMails("bulk", bulk.id)).toHaveLength(1);
  });

  it("refunds a cancelled paid order's share through the provider and won't reopen it", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct({ stock: 5, priceCents: 1000, shippingCostCents: 250 });
    const other = await store.newProduct({ stock: 5, priceCents: 4000 });
    const id = await store.buyNow(me, productId, 3);
    await store.buyNow(me, other, 1);
    await store.payPending(me); // one payment of 30 + 2.50 + 40 for both lines
    expect((await putOrder(admin, id, { status: "cancelled" })).statusCode).toBe(200);
    expect(await store.stockOf(productId)).toBe(5);
    expect(await store.orderOf(id)).toMatchObject({ status: "cancelled", flag: "refund_needed" });
    const [queued] = await t.database.db
      .select()
      .from(refunds)
      .where(eq(refunds.reason, "the store cancelled the order"))
      .orderBy(desc(refunds.id))
      .limit(1);
    expect(queued!.amountCents).toBe(3250);
    const reopened = await putOrder(admin, id, { status: "preparing" });
    expect(reopened.statusCode).toBe(409);
    expect(reopened.json().error).toBe("This order's payment was refunded: it can't be reopened");
    expect(await store.stockOf(productId)).toBe(5);

    // A bulk order: its products and shipping go back at once.
    const a = await store.newProduct({ stock: 10 });
    const bulk = await bulkOrder(me, [[a, 2]]);
    expect((await putBulk(admin, bulk.id, { status: "cancelled" })).statusCode).toBe(200);
    const [bulkRefund] = await t.database.db.select().from(refunds).orderBy(desc(refunds.id)).limit(1);
    expect(bulkRefund!.amountCents).toBe(2000);
    expect((await putBulk(admin, bulk.id, { status: "delivered" })).statusCode).toBe(409);
  });

  it("takes the stock again to bring back a cancelled order whose money was kept, and refuses when short", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct({ stock: 5 });
    const id = await paidOrder(me, productId, 3);
    expect((await putOrder(admin, id, { status: "cancelled" })).statusCode).toBe(200);
    // An order cancelled before refunds existed: its money was never given back.
    await t.database.db.update(orders).set({ flag: null }).where(eq(orders.id, id));
    await paidOrder(await store.newShopper(), productId, 4);
    const refused = await putOrder(admin, id, { status: "finished" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: expect.stringContaining("Not enough stock"), stock: 1 });
    expect(await store.stockOf(productId)).toBe(1);
    await t.database.db.update(products).set({ stock: 4 }).where(eq(products.id, productId));
    expect((await putOrder(admin, id, { status: "preparing" })).statusCode).toBe(200);
    expect(await store.stockOf(productId)).toBe(1);
  });

  it("only cancels a pending order nobody paid for, and gives back no stock it never took", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct({ stock: 10 });
    const id = await store.buyNow(me, productId, 2);
    for (const status of ["finished", "preparing", "onDelivery", "delivered"]) {
      const refused = await putOrder(admin, id, { status });
      expect(refused.statusCode, status).toBe(409);
      expect(refused.json().error).toBe("This order hasn't been paid");
    }
    expect((await putOrder(admin, id, { status: "cancelled" })).statusCode).toBe(200);
    expect(await store.stockOf(productId)).toBe(10);
    expect((await shopperPurchases(me)).lines).toContainEqual(
      expect.objectContaining({ id, status: "cancelled" }),
    );
    // Cancelled unpaid, it can't become a paid order either (found by the money model: goods with no money).
    const reopened = await putOrder(admin, id, { status: "preparing" });
    expect(reopened.statusCode).toBe(409);
    expect(reopened.json().error).toBe("This order hasn't been paid");

    const bulk = await bulkOrder(me, [[productId, 1]], { paid: false });
    expect((await putBulk(admin, bulk.id, { status: "delivered" })).statusCode).toBe(409);
    expect((await putBulk(admin, bulk.id, { status: "cancelled" })).statusCode).toBe(200);
    expect((await putBulk(admin, bulk.id, { status: "finished" })).statusCode).toBe(409);
    expect(await store.stockOf(productId)).toBe(10);
  });

  it("refuses list lines, bulk order lines, unknown orders and bad bodies, with the reason", async () => {
    const me = await store.newShopper();
    const productId = await store.newProduct();
    const wish = await t.app.inject({
      method: "POST",
      url: "/api/order",
      headers: me,
      payload: { status: "inWishList", productId },
    });
    const wishId = wish.json<{ id: number }>().id;
    const listLine = await putOrder(admin, wishId, { status: "delivered" });
    expect(listLine.statusCode).toBe(409);
    expect(listLine.json().error).toBe("This line is in a shopper's list, not an order");
    // The authorization matrix's request (a shopper's body) gets the same answer.
    expect((await putOrder(admin, wishId, { status: "inCart" })).statusCode).toBe(409);

    const bulk = await bulkOrder(me, [[productId, 1]]);
    const bulkLine = await putOrder(admin, bulk.lineIds[0]!, { status: "delivered" });
    expect(bulkLine.statusCode).toBe(409);
    expect(bulkLine.json().error).toContain(`bulk order ${bulk.id}`);

    for (const reply of [
      await putOrder(admin, 2_000_000_000, { status: "delivered" }),
      await putBulk(admin, 2_000_000_000, { status: "delivered" }),
    ]) {
      expect(reply.statusCode).toBe(404);
      expect(reply.json().error).toBe("Order Not Found");
    }

    const bought = await paidOrder(me, productId);
    for (const body of [{ status: "bogus" }, { status: "inCart" }, { status: "pending" }, { amount: 1 }]) {
      const reply = await putOrder(admin, bought, body);
      expect(reply.statusCode, JSON.stringify(body)).toBe(400);
      expect(reply.json().details, JSON.stringify(body)).toEqual([
        { field: "status", reason: expect.stringContaining("must be") },
      ]);
    }
    for (const body of [{ status: "inCart" }, {}, { status: 3 }]) {
      const reply = await putBulk(admin, bulk.id, body);
      expect(reply.statusCode, JSON.stringify(body)).toBe(400);
      expect(reply.json().details[0].field).toBe("status");
    }
    expect(await store.orderOf(bought)).toMatchObject({ status: "finished" });

    // Ids are decimal strings of a database integer: nothing else reaches the service.
    expect((await putOrder(admin, String(bought), { status: "preparing" })).statusCode).toBe(200);
    expect((await putBulk(admin, String(bulk.id), { status: "preparing" })).statusCode).toBe(200);
    for (const id of ["abc", "0x10", `0${bought}`, "1e3", "2147483648", "-1"]) {
      expect((await putOrder(admin, id, { status: "delivered" })).statusCode, id).toBe(400);
      expect((await putBulk(admin, id, { status: "delivered" })).statusCode, id).toBe(400);
    }

    // Shoppers keep their own rules: another shopper's purchase is not theirs to move.
    const other = await store.newShopper();
    expect((await putOrder(other, bought, { status: "pending" })).statusCode).toBe(404);
    expect((await putOrder(me, bought, { status: "delivered" })).statusCode).toBe(403);
  });

  it("doesn't mail a deleted shopper", async () => {
    const me = await store.newShopper();
    const meId = await store.userIdOf(me);
    const id = await paidOrder(me, await store.newProduct());
    const deleted = await t.app.inject({
      method: "DELETE",
      url: "/api/user/admin",
      headers: admin,
      payload: { id: meId },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await putOrder(admin, id, { status: "onDelivery" })).statusCode).toBe(200);
    expect(await statusMails("order", id)).toHaveLength(0);
    expect(await auditOf("order", id)).toHaveLength(1);
    const [listed] = (await adminList(`userId=${meId}`)).orders;
    expect(listed).toMatchObject({ id, status: "onDelivery" });
  });
});

describe("GET /api/order/admin/export", () => {
  it("quotes fields as RFC 4180 says and disarms formula-looking text", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField(12.5)).toBe("12.5");
    expect(csvField(null)).toBe("");
    expect(csvField('say "hi", twice\r\nok')).toBe('"say ""hi"", twice\r\nok"');
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) expect(csvField(`${start}SUM(A1)`)).toMatch(/^"?'/);
    expect(csvField("=1+2")).toBe("'=1+2");
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it("streams the filtered purchases as CSV, one row per purchase", async () => {
    const me = await store.newShopper();
    const meId = await store.userIdOf(me);
    const [evil] = await t.database.db
      .insert(products)
      .values({
        title: '=HYPERLINK("http://evil.test","Click, me")',
        name: "evil",
        priceCents: 1050,
        stock: 10,
      })
      .returning({ id: products.id });
    const plain = await store.newProduct({ priceCents: 200, shippingCostCents: 150 });
    const single = await paidOrder(me, evil!.id, 2);
    const bulk = await bulkOrder(me, [
      [plain, 3],
      [evil!.id, 1],
    ]);
    const cancelled = await paidOrder(me, plain);
    expect((await putOrder(admin, cancelled, { status: "cancelled" })).statusCode).toBe(200);

    const reply = await exportCsv(`userId=${meId}`);
    expect(reply.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(reply.headers["content-disposition"]).toBe('attachment; filename="orders.csv"');
    const rows = reply.body.split("\r\n");
    expect(rows.at(-1)).toBe("");
    expect(rows[0]).toBe(ORDER_CSV_COLUMNS.join(","));
    expect(rows).toHaveLength(5);
    const [single1, bulkRow, cancelledRow] = [
      await store.orderOf(single),
      ...(await t.database.db.select().from(bulkOrders).where(eq(bulkOrders.id, bulk.id))),
      await store.orderOf(cancelled),
    ];
    const email = (await adminList(`userId=${meId}`)).orders[0]!.user.email;
    expect(rows[1]).toBe(
      `order,${cancelled},${meId},${email},cancelled,refund_needed,${cancelledRow!.serverPurchaseDate!.toISOString()},2.00,1.50,${cancelledRow!.purchaseId},` +
        `${await titleOf(plain)} × 1,${orderNumber(cancelledRow!.checkoutId!)}`,
    );
    expect(rows[2]).toBe(
      `bulk,${bulk.id},${meId},${email},finished,,${bulkRow!.serverPurchaseDate!.toISOString()},16.50,1.50,${bulkRow!.purchaseId},` +
        `"${await titleOf(plain)} × 3; =HYPERLINK(""http://evil.test"",""Click, me"") × 1",${orderNumber(bulkRow!.checkoutId!)}`,
    );
    expect(rows[3]).toBe(
      `order,${single},${meId},${email},finished,,${single1.serverPurchaseDate!.toISOString()},21.00,0.00,${single1.purchaseId},` +
        `"'=HYPERLINK(""http://evil.test"",""Click, me"") × 2",${orderNumber(single1.checkoutId!)}`,
    );

    const onlyCancelled = (await exportCsv(`userId=${meId}&status=cancelled`)).body.split("\r\n");
    expect(onlyCancelled).toHaveLength(3);
    expect(onlyCancelled[1]).toMatch(new RegExp(`^order,${cancelled},`));
    const flagged = (await exportCsv(`userId=${meId}&flagged=true`)).body.split("\r\n");
    expect(flagged.slice(1, -1).map((row) => row.split(",").slice(0, 2).join(","))).toEqual([
      `order,${cancelled}`,
    ]);
  });

  it("reads in keyset batches: every purchase once, in the list's order, ties on the date included", async () => {
    const me = await store.newShopper();
    const meId = await store.userIdOf(me);
    const productId = await store.newProduct({ stock: 100 });
    for (let index = 0; index < 4; index++) await paidOrder(me, productId);
    await bulkOrder(me, [[productId, 2]]);
    await bulkOrder(me, [[await store.newProduct(), 1]]);
    // Several purchases bought in the same microsecond: the id, then the kind, orders them.
    const sameMoment = new Date("2026-01-02T03:04:05.678Z");
    const mine = await adminList(`userId=${meId}&limit=100`);
    const singleIds = mine.orders.filter((order) => order.kind === "order").map((order) => order.id);
    const bulkIds = mine.orders.filter((order) => order.kind === "bulk").map((order) => order.id);
    await t.database.db
      .update(orders)
      .set({ serverPurchaseDate: sameMoment })
      .where(inArray(orders.id, singleIds.slice(0, 3)));
    await t.database.db
      .update(bulkOrders)
      .set({ serverPurchaseDate: sameMoment })
      .where(inArray(bulkOrders.id, bulkIds));

    const listed = await adminList(`userId=${meId}&limit=100`);
    expect(listed.total).toBe(6);
    const expected = listed.orders.map((order) => `${order.kind},${order.id}`);
    for (const batch of [1, 2, 4, 500]) {
      let text = "";
      for await (const chunk of ordersCsv(t.database.db, { userId: meId }, batch)) text += String(chunk);
      const rows = text.split("\r\n").slice(1, -1);
      expect(
        rows.map((row) => row.split(",").slice(0, 2).join(",")),
        `batch ${batch}`,
      ).toEqual(expected);
    }
  });
});

async function titleOf(productId: number) {
  const [row] = await t.database.db
    .select({ title: products.title })
    .from(products)
    .where(eq(products.id, productId));
  return row!.title;
}

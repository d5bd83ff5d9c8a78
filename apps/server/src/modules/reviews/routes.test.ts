import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALREADY_REVIEWED, NOT_A_BUYER } from "@voltio/domain/reviews";
import { createTestApp, type TestContext } from "../../../test/app";
import { auditLog, orders, products } from "../../db/schema";

/**
 * Reviews: verified buyers only, one each, their own to edit and delete, and other
 * reviewers' e-mails never in a reply.
 */
let t: TestContext;
let serial = 0;
type Headers = Record<string, string>;

async function newShopper(): Promise<{ id: number; email: string; headers: Headers }> {
  const email = `review-${++serial}@voltio.test`;
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/user",
    payload: { firstName: "Rita", lastName: "Reviewer", email, password: "long-enough-1" },
  });
  expect(reply.statusCode, reply.body).toBe(201);
  const id = reply.json<{ id: number }>().id;
  return { id, email, headers: await t.bearer(id) };
}

async function newProduct() {
  const [row] = await t.database.db
    .insert(products)
    .values({ title: `Review test ${++serial}`, name: "thing", priceCents: 1000, stock: 10 })
    .returning({ id: products.id });
  return row!.id;
}

/** An order of the product in this status, as the checkout leaves it. */
async function ordered(userId: number, productId: number, status: "finished" | "pending" | "cancelled") {
  await t.database.db.insert(orders).values({ userId, productId, status, amount: 1 });
}

const post = (headers: Headers, payload: Record<string, unknown>) =>
  t.app.inject({ method: "POST", url: "/api/comment", headers, payload });
const put = (headers: Headers, payload: Record<string, unknown>) =>
  t.app.inject({ method: "PUT", url: "/api/comment", headers, payload });
const remove = (headers: Headers, id: number) =>
  t.app.inject({ method: "DELETE", url: "/api/comment", headers, payload: { id } });
const list = (productId: number, headers: Headers = {}) =>
  t.app.inject({ url: `/api/comment?productId=${productId}`, headers });
const ratingOf = async (productId: number) =>
  (await t.app.inject({ url: `/api/products/${productId}` })).json<{ rating: unknown }>().rating;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("who may review", () => {
  it("only a customer with a paid order of the product; not a pending or cancelled one, not a guest", async () => {
    const productId = await newProduct();
    const shopper = await newShopper();
    const review = { content: "Great", rating: 5, productId };
    const notBought = await post(shopper.headers, review);
    expect(notBought.statusCode).toBe(403);
    expect(notBought.json().error).toBe(NOT_A_BUYER);
    await ordered(shopper.id, productId, "pending");
    await ordered(shopper.id, productId, "cancelled");
    expect((await post(shopper.headers, review)).statusCode).toBe(403);
    expect((await post({}, review)).statusCode).toBe(401);
    await ordered(shopper.id, productId, "finished");
    expect((await post(shopper.headers, review)).statusCode).toBe(201);
    expect((await post(shopper.headers, { ...review, productId: 2_000_000_000 })).statusCode).toBe(404);
  });

  it("one review per customer and product, even when sent five times at once", async () => {
    const productId = await newProduct();
    const shopper = await newShopper();
    await ordered(shopper.id, productId, "finished");
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        post(shopper.headers, { content: `try ${i}`, rating: 4, productId }),
      ),
    );
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(replies.find((reply) => reply.statusCode === 409)!.json().error).toBe(ALREADY_REVIEWED);
    expect(await ratingOf(productId)).toEqual({ average: 4, count: 1 });
  });
});

describe("reading, editing and deleting", () => {
  it("lists newest first; the caller's own review alone carries an e-mail; averages follow every change", async () => {
    const productId = await newProduct();
    const [ana, ben] = [await newShopper(), await newShopper()];
    for (const shopper of [ana, ben]) await ordered(shopper.id, productId, "finished");
    const first = (
      await post(ana.headers, { content: "  <b>Solid</b> mouse  ", rating: 5, productId })
    ).json();
    expect(first).toMatchObject({ content: "<b>Solid</b> mouse", rating: 5, userInfo: { email: ana.email } });
    const second = (await post(ben.headers, { content: "Meh", rating: "2", productId })).json();
    expect(await ratingOf(productId)).toEqual({ average: 3.5, count: 2 });

    const asGuest = (await list(productId)).json<{ id: number; userInfo: Record<string, unknown> }[]>();
    expect(asGuest.map((review) => review.id)).toEqual([second.id, first.id]);
    for (const review of asGuest) {
      expect(review.userInfo).toEqual({ firstName: "Rita", lastName: "R." });
    }
    const asAna = (await list(productId, ana.headers)).json<{ id: number; userInfo: { email?: string } }[]>();
    expect(asAna.find((review) => review.id === first.id)!.userInfo.email).toBe(ana.email);
    expect(asAna.find((review) => review.id === second.id)!.userInfo).not.toHaveProperty("email");
    expect(JSON.stringify(asAna)).not.toContain(ben.email);

    // Only the author edits; the average moves by the difference.
    expect((await put(ben.headers, { id: first.id, content: "hacked", rating: 1 })).statusCode).toBe(403);
    const edited = await put(ana.headers, { id: first.id, content: "Good mouse", rating: 4 });
    expect(edited.json()).toMatchObject({ content: "Good mouse", rating: 4 });
    expect(await ratingOf(productId)).toEqual({ average: 3, count: 2 });

    // Only the author deletes, or an admin, whose deletion is on the audit log.
    expect((await remove(ben.headers, first.id)).statusCode).toBe(403);
    expect((await remove(ana.headers, first.id)).statusCode).toBe(200);
    expect((await remove(ana.headers, first.id)).statusCode).toBe(404);
    expect(await ratingOf(productId)).toEqual({ average: 2, count: 1 });
    expect((await remove(await t.bearer(1), second.id)).statusCode).toBe(200);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "comment.delete"), eq(auditLog.entityId, String(second.id))));
    expect(entry).toMatchObject({ actorId: 1, entity: "comment", details: { before: { rating: 2 } } });
    expect(await ratingOf(productId)).toEqual({ average: 0, count: 0 });
    expect((await list(productId)).json()).toEqual([]);
  });

  it("refuses a rating outside 1..5, a fraction, an over-long or control-character text, an unknown product", async () => {
    const productId = await newProduct();
    const shopper = await newShopper();
    await ordered(shopper.id, productId, "finished");
    for (const [field, payload] of [
      ["rating", { rating: 0 }],
      ["rating", { rating: 6 }],
      ["rating", { rating: 2.5 }],
      ["rating", { rating: "five" }],
      ["content", { content: "x".repeat(2001) }],
      ["content", { content: "bad\u0000byte" }],
    ] as const) {
      const reply = await post(shopper.headers, { ...{ content: "ok", rating: 3, productId }, ...payload });
      expect(reply.statusCode, JSON.stringify(payload)).toBe(400);
      expect(reply.json().details[0].field).toBe(field);
    }
    expect((await post(shopper.headers, { content: "Two\nlines", rating: 3, productId })).statusCode).toBe(
      201,
    );
    expect((await list(2_000_000_000)).statusCode).toBe(404);
    expect((await list(productId)).json()[0].content).toBe("Two\nlines");
  });
});

describe("the listing by rating (order=RATING)", () => {
  it("puts the best-rated products first", async () => {
    const [low, high] = [await newProduct(), await newProduct()];
    const shopper = await newShopper();
    for (const [productId, rating] of [
      [low, 2],
      [high, 5],
    ] as const) {
      await ordered(shopper.id, productId, "finished");
      expect((await post(shopper.headers, { content: "", rating, productId })).statusCode).toBe(201);
    }
    const reply = await t.app.inject({ url: "/api/products?order=RATING&limit=100&offset=1" });
    expect(reply.statusCode, reply.body).toBe(200);
    const listed = reply.json<{ products: { id: number; rating: { average: number } }[] }>().products;
    const ids = listed.map((product) => product.id);
    expect(ids.indexOf(high)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(high)).toBeLessThan(ids.indexOf(low));
    const averages = listed.map((product) => product.rating.average);
    expect(averages).toEqual([...averages].sort((a, b) => b - a));
  });
});

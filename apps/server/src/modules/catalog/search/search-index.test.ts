import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { products } from "../../../db/schema";
import { rawQuery } from "../../../db/raw";
import { createTestApp, type TestContext } from "../../../../test/app";
import { LiveSearchIndex } from "./live-index";
import { searchTerms, words } from "./words";

let t: TestContext;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.bearer(1);
});
afterAll(() => t.close());

const searchIds = async (search: string) => {
  const reply = await t.app.inject({ url: `/api/products?search=${encodeURIComponent(search)}&limit=100` });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ products: { id: number; title: string }[]; total: number }>();
};

describe("the search index follows the catalogue", () => {
  it("finds a product as soon as an admin creates it, by its new words once renamed, and not once deleted", async () => {
    const drone = {
      title: "Quixotic drone",
      name: "Zephyrine",
      price: 120,
      shippingCost: 5,
      description: "Flies over windmills. ",
      stock: 4,
      images: ["https://img.example/drone.png"],
      categories: ["Drones"],
    };
    const created = await t.app.inject({
      method: "POST",
      url: "/api/products",
      headers: admin,
      payload: drone,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: number }>();
    expect((await searchIds("quixotic")).products.map((p) => p.id)).toEqual([id]);
    // A category name counts like the title; a typo finds it too.
    expect((await searchIds("drones")).products.map((p) => p.id)).toContain(id);
    expect((await searchIds("windmils")).products.map((p) => p.id)).toEqual([id]);

    const renamed = await t.app.inject({
      method: "PUT",
      url: `/api/products/${id}`,
      headers: admin,
      payload: { ...drone, title: "Quadcopter Halcyon" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await searchIds("quixotic")).total).toBe(0);
    expect((await searchIds("halcyon")).products.map((p) => p.id)).toEqual([id]);

    const removed = await t.app.inject({ method: "DELETE", url: `/api/products/${id}`, headers: admin });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await searchIds("halcyon")).total).toBe(0);
  });
});

describe("LiveSearchIndex", () => {
  const search = (index: Awaited<ReturnType<LiveSearchIndex["get"]>>, terms: string) =>
    index.search({ terms: searchTerms(terms), includeOutOfStock: false, page: 1, limit: 100 }).ids;

  it("updates what a notification names in place, and nothing it wasn't told of", async () => {
    const live = new LiveSearchIndex();
    const run = rawQuery(t.database.db);
    const before = await live.get(run);
    const logitech = search(before, "logitech");
    expect(logitech.length).toBeGreaterThan(1);
    const [sold] = logitech;

    await t.database.db.update(products).set({ stock: 0 }).where(eq(products.id, sold!));
    // Unannounced, the change is not seen...
    expect(search(await live.get(run), "logitech")).toContain(sold);
    // ...announced, the next search waits for that product's stock to be read; the index is the same.
    live.changed({ kind: "stock", ids: [sold!] });
    const after = await live.get(run);
    expect(after).toBe(before);
    expect(search(after, "logitech")).not.toContain(sold);

    await t.database.db
      .update(products)
      .set({ title: "Renamed thing", stock: 3 })
      .where(eq(products.id, sold!));
    live.changed({ kind: "products", ids: [sold!] });
    expect(await live.get(run)).toBe(before);
    expect(search(before, "renamed")).toEqual([sold]);

    // A change it can't name product by product: read again.
    live.changed({ kind: "catalog" });
    const rebuilt = await live.get(run);
    expect(rebuilt).not.toBe(before);
    expect(search(rebuilt, "renamed")).toEqual([sold]);
  });

  it("answers a search the same whatever was searched before, in every order", async () => {
    const index = await new LiveSearchIndex().get(rawQuery(t.database.db));
    const page = (terms: string, order?: "ASC" | "DESC" | "RATING", limit = 5) =>
      index.search({ terms: searchTerms(terms), includeOutOfStock: false, order, page: 1, limit });
    const first = page("wireless mouse");
    expect(first.total).toBeGreaterThan(1);
    page("usb");
    page("logitec mose", "ASC");
    page("laptop", undefined, 100);
    expect(page("wireless mouse")).toEqual(first);
    // The same matches by price: the second page continues the first.
    const all = page("wireless mouse", "ASC", 100).ids;
    expect(all).toHaveLength(first.total);
    expect(
      index.search({
        terms: ["wireless", "mouse"],
        includeOutOfStock: false,
        order: "ASC",
        page: 2,
        limit: 2,
      }).ids,
    ).toEqual(all.slice(2, 4));
  });

  it("splits words as the search does: letters and digits of any script, lower-cased", () => {
    expect(words("USB-C Hub, 4K@60Hz — Ñandú 1TB")).toEqual([
      "usb",
      "c",
      "hub",
      "4k",
      "60hz",
      "ñandú",
      "1tb",
    ]);
    expect(searchTerms("  ")).toEqual([]);
    expect(searchTerms("a b c d e f g h i j")).toHaveLength(8);
  });
});

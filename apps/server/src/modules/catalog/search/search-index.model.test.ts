import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../../test/app";
import { listenForChanges, type ChangeFeed } from "../../../db/changes";
import { rawQuery } from "../../../db/raw";
import { LiveSearchIndex } from "./live-index";
import { SearchIndex, type SearchQuery } from "./search-index";
import { searchTerms } from "./words";

/**
 * Fast-check writes to the catalogue by SQL, as any process or tool would —
 * renames, new descriptions, prices, stock, ratings, retirements and returns, new products, categories
 * linked, unlinked and renamed — and after each batch the index that followed the notifications product by
 * product answers every search exactly as an index built afresh from the database does, without having been
 * built again.
 */
let t: TestContext;
let live: LiveSearchIndex;
let feed: ChangeFeed;
beforeAll(async () => {
  t = await createTestApp();
  live = new LiveSearchIndex();
  feed = (await listenForChanges(t.database.db, t.database.url, {
    onChange: (change) => live.changed(change),
    onMissed: () => live.changed({ kind: "catalog" }),
    log: { warn: () => {} },
  }))!;
  while (!feed.connected()) await new Promise((resolve) => setTimeout(resolve, 20));
});
afterAll(async () => {
  await feed.close();
  await t.close();
});

const WORDS = [
  "zephyr",
  "quixotic",
  "mouse",
  "keyboard",
  "usb",
  "monitors",
  "ñandú",
  "logitech",
  "mice",
  "zephyrs",
];
const SEARCHES = [
  "zephyr",
  "zephir",
  "quixotc",
  "mouse",
  "mose",
  "keyboard",
  "usb",
  "monitor",
  "logi",
  "ñandú",
];
const CATEGORY_IDS = [1, 2, 3, 4];

const text = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 })
  .map((list) => list.join(" "));
/** Demo products 1–59, and the first few this run creates. */
const productId = fc.integer({ min: 1, max: 64 });

type Write = { name: string; sql: ReturnType<typeof sql> };
const write = fc.oneof(
  fc.tuple(productId, text).map(([id, words]): Write => ({
    name: `title ${id} ${words}`,
    sql: sql`update products set title = ${words} || ' ' || title where id = ${id}`,
  })),
  fc.tuple(productId, text).map(([id, words]): Write => ({
    name: `description ${id} ${words}`,
    sql: sql`update products set description = ${words} where id = ${id}`,
  })),
  fc.tuple(productId, fc.integer({ min: 0, max: 50_000 })).map(([id, cents]): Write => ({
    name: `price ${id} ${cents}`,
    sql: sql`update products set price_cents = ${cents}, shipping_cost_cents = ${cents % 2 ? 0 : 500} where id = ${id}`,
  })),
  fc.tuple(productId, fc.integer({ min: 0, max: 3 })).map(([id, stock]): Write => ({
    name: `stock ${id} ${stock}`,
    sql: sql`update products set stock = ${stock} where id = ${id}`,
  })),
  fc.tuple(productId, fc.integer({ min: 1, max: 5 })).map(([id, stars]): Write => ({
    name: `review ${id} ${stars}`,
    sql: sql`update products set rating_sum = rating_sum + ${stars}, rating_count = rating_count + 1 where id = ${id}`,
  })),
  productId.map((id): Write => ({
    name: `retire ${id}`,
    sql: sql`update products set deleted_at = now() where id = ${id}`,
  })),
  productId.map((id): Write => ({
    name: `restore ${id}`,
    sql: sql`update products set deleted_at = null where id = ${id}`,
  })),
  fc.tuple(text, fc.constantFrom(...CATEGORY_IDS)).map(([words, categoryId]): Write => ({
    name: `create ${words} in ${categoryId}`,
    sql: sql`with created as (
               insert into products (title, name, price_cents, stock, description)
               values (${words}, 'new', 1999, 2, ${words}) returning id)
             insert into product_categories (product_id, category_id) select id, ${categoryId} from created`,
  })),
  fc.tuple(productId, fc.constantFrom(...CATEGORY_IDS)).map(([id, categoryId]): Write => ({
    name: `link ${id} ${categoryId}`,
    sql: sql`insert into product_categories (product_id, category_id)
             select id, ${categoryId} from products where id = ${id} on conflict do nothing`,
  })),
  fc.tuple(productId, fc.constantFrom(...CATEGORY_IDS)).map(([id, categoryId]): Write => ({
    name: `unlink ${id} ${categoryId}`,
    sql: sql`delete from product_categories where product_id = ${id} and category_id = ${categoryId}`,
  })),
  fc.tuple(fc.constantFrom(...CATEGORY_IDS), fc.constantFrom(...WORDS)).map(([id, word]): Write => ({
    name: `category ${id} ${word}`,
    sql: sql`update categories set name = ${word} || ' ' || ${id} where id = ${id}`,
  })),
  // Every product at once (59 and more): one notification names them all.
  fc.constantFrom(...WORDS).map((word): Write => ({
    name: `every description ${word}`,
    sql: sql`update products set description = description || ' ' || ${word}`,
  })),
);

/** Searches as the listing asks them: each word, filtered, sorted and paged. */
const queries: SearchQuery[] = SEARCHES.flatMap((search) => [
  { terms: searchTerms(search), includeOutOfStock: false, page: 1, limit: 100 },
  { terms: searchTerms(search), includeOutOfStock: true, order: "RATING", page: 1, limit: 100 },
  { terms: searchTerms(`${search} usb`), includeOutOfStock: true, order: "ASC", page: 2, limit: 3 },
  {
    terms: searchTerms(search),
    includeOutOfStock: true,
    categoryId: 2,
    freeShipping: true,
    page: 1,
    limit: 8,
  },
  {
    terms: searchTerms(search),
    includeOutOfStock: false,
    minCents: 1000,
    maxCents: 30_000,
    page: 1,
    limit: 5,
  },
]);

describe("LiveSearchIndex follows the notifications product by product", () => {
  it("answers every search as an index built afresh does, after any writes, and is never built again", async () => {
    const run = rawQuery(t.database.db);
    const index = await live.get(run);
    let batches = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 6 }), async (writes) => {
        for (const { sql: statement } of writes) await t.database.db.execute(statement);
        expect(await feed.caughtUp()).toBe(true);
        // The same index, changed in place.
        expect(await live.get(run)).toBe(index);
        const fresh = await SearchIndex.load(run);
        expect(index.size).toBe(fresh.size);
        for (const query of queries)
          expect(index.search(query), JSON.stringify(query)).toEqual(fresh.search(query));
        batches++;
      }),
      { numRuns: 40 },
    );
    expect(batches).toBeGreaterThanOrEqual(40);
    // The searches found something to compare.
    expect(index.search(queries[0]!).total).toBeGreaterThan(0);
  });

  it("corrects a typo only to words some product still has", async () => {
    const run = rawQuery(t.database.db);
    const index = await live.get(run);
    // Six words nearer to 'vortx' than 'vortexes' is, then gone from every product: they mustn't hide it.
    await t.database.db.execute(
      sql`insert into products (title, name, price_cents, stock, description)
          select 'Spinner', 'spinner', 100, 1, 'vortex' || chr(96 + n) from generate_series(1, 6) n`,
    );
    await t.database.db.execute(sql`update products set description = 'plain' where title = 'Spinner'`);
    await t.database.db.execute(
      sql`insert into products (title, name, price_cents, stock, description)
          values ('Fan', 'fan', 100, 1, 'vortexes')`,
    );
    expect(await feed.caughtUp()).toBe(true);
    expect(await live.get(run)).toBe(index);
    const typo = { terms: ["vortx"], includeOutOfStock: false, page: 1, limit: 10 };
    expect(index.search(typo)).toEqual((await SearchIndex.load(run)).search(typo));
    expect(index.search(typo).total).toBe(1);
  });

  it("is read again when more products changed at once than a notification names", async () => {
    const run = rawQuery(t.database.db);
    const before = await live.get(run);
    await t.database.db.execute(
      sql`insert into products (title, name, price_cents, stock, description)
          select 'Bulk gizmo ' || n, 'bulk', 100, 1, '' from generate_series(1, 101) n`,
    );
    expect(await feed.caughtUp()).toBe(true);
    const after = await live.get(run);
    expect(after).not.toBe(before);
    expect(after.search({ terms: ["gizmo"], includeOutOfStock: false, page: 1, limit: 200 }).total).toBe(101);
  });
});

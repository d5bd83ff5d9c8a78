import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../../test/app";

/**
 * Search relevance over the demo catalogue: a judged query set — each query with the
 * products a shopper expects first — run through GET /api/products as the storefront asks it. It reports
 * precision at 5 (of the first min(5, expected) results, the share that is expected; a query with two right
 * answers is judged on its first two) and the mean reciprocal rank of the first expected product.
 */
const JUDGED: [query: string, expectedFirst: number[]][] = [
  ["laptop", [53, 54, 55, 56, 57, 58, 59]],
  ["laptops", [53, 54, 55, 56, 57, 58, 59]],
  ["moni", [48, 49, 50, 51, 52]],
  ["monitor", [48, 49, 50, 51, 52]],
  ["tablet", [43, 44, 45, 46, 47]],
  ["android tablet", [43, 44, 45, 46, 47]],
  ["logitec mose", [11, 19]],
  ["wireless mouse", [11, 17, 19]],
  ["mouse", [11, 17, 18, 19]],
  ["hp printer", [38, 39, 40]],
  ["printer", [35, 36, 37, 38, 39, 40, 41, 42]],
  ["canon printer", [35, 42]],
  ["ssd 1tb", [25, 29]],
  ["kingston ssd", [27, 28]],
  ["portable ssd", [29]],
  ["hdd", [30, 31, 32, 33, 34]],
  ["seagate", [31, 32, 34]],
  ["webcam", [20, 21, 22, 23, 24]],
  ["logitech webcam", [22, 23]],
  ["keyboard", [9, 10, 13, 14, 15]],
  ["gaming keyboard", [9, 14]],
  ["desktop", [1, 2, 3, 4, 5, 6]],
  ["gaming pc", [4, 5, 6]],
  ["curved monitor", [50, 51]],
  ["samsung", [25, 43, 50]],
  ["lenovo", [3, 45, 54]],
  ["dell", [52, 59]],
  ["keybord", [9, 10, 13, 14, 15]],
  ["monitr", [48, 49, 50, 51, 52]],
  ["laptp", [53, 54, 55, 56, 57, 58, 59]],
];

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const search = async (query: string, limit = 100) => {
  const reply = await t.app.inject({
    url: `/api/products?search=${encodeURIComponent(query)}&offset=1&limit=${limit}`,
  });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ products: { id: number }[] }>().products.map((product) => product.id);
};

function judge(ranked: number[], expected: number[]) {
  const k = Math.min(5, expected.length);
  const precision = ranked.slice(0, k).filter((id) => expected.includes(id)).length / k;
  const first = ranked.findIndex((id) => expected.includes(id));
  return { precision, reciprocalRank: first < 0 ? 0 : 1 / (first + 1) };
}

describe("search relevance over the demo catalogue", () => {
  it(`ranks the expected products first: precision@5 and MRR of ${JUDGED.length} judged queries ≥ 0.9`, async () => {
    const results = await Promise.all(
      JUDGED.map(async ([query, expected]) => ({ query, ranked: await search(query), expected })),
    );
    const judged = results.map(({ query, ranked, expected }) => ({
      query,
      ranked,
      ...judge(ranked, expected),
    }));
    const precision = judged.reduce((sum, row) => sum + row.precision, 0) / judged.length;
    const mrr = judged.reduce((sum, row) => sum + row.reciprocalRank, 0) / judged.length;
    const misses = judged
      .filter((row) => row.precision < 1)
      .map(
        (row) => `${row.query}: P@5 ${row.precision.toFixed(2)}, first ${row.ranked.slice(0, 6).join(",")}`,
      );
    console.info(
      `search relevance: precision@5 ${precision.toFixed(3)}, MRR ${mrr.toFixed(3)} over ${judged.length} queries` +
        (misses.length ? `; below 1: ${misses.join("; ")}` : ""),
    );
    expect(precision, misses.join("\n")).toBeGreaterThanOrEqual(0.9);
    expect(mrr, misses.join("\n")).toBeGreaterThanOrEqual(0.9);
  });

  it("the header's dropdown (6 results) shows the listing's first 6, in the same order", async () => {
    for (const query of ["laptop", "moni", "logitec mose", "hp printer"]) {
      expect(await search(query, 6), query).toEqual((await search(query)).slice(0, 6));
    }
  });

  it("keeps the price sort and the filters on a search", async () => {
    const byPrice = await t.app.inject({ url: "/api/products?search=monitor&order=ASC&limit=100" });
    const prices = byPrice.json<{ products: { price: number }[] }>().products.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const cheap = await t.app.inject({ url: "/api/products?search=laptop&maxPrice=400&limit=100" });
    const found = cheap.json<{ products: { id: number; price: number }[] }>().products;
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((product) => product.price <= 400)).toBe(true);
  });
});

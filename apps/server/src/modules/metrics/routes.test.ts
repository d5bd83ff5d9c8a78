import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop } from "../../../test/shop";

const TOKEN = "metrics-token-for-the-tests-0123";
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(() => t.close());

const scrape = (authorization?: string) =>
  t.app.inject({ url: "/api/metrics", headers: authorization ? { authorization } : {} });

describe("GET /api/metrics", () => {
  it("is served only with the token, and says nothing otherwise", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${TOKEN}x`, TOKEN]) {
      const reply = await scrape(authorization);
      expect(reply.statusCode, authorization).toBe(404);
      expect(reply.body).not.toContain("voltio_");
    }
    const off = await createTestApp();
    expect(
      (await off.app.inject({ url: "/api/metrics", headers: { authorization: `Bearer ${TOKEN}` } }))
        .statusCode,
    ).toBe(404);
    await off.close();
  });

  it("counts requests by route pattern, cache results, checkouts, settlements and the outbox", async () => {
    await t.app.inject({ url: "/api/products/1" });
    await t.app.inject({ url: "/api/products/1" });
    await t.app.inject({ url: "/api/products/2" });
    await t.app.inject({ url: "/api/products?search=laptop" });
    const store = shop(t);
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const paid = await t.app.inject({
      method: "POST",
      url: "/api/sandbox/pay",
      headers: me,
      payload: { baseURL: "http://localhost:3000" },
    });
    expect(paid.statusCode).toBe(200);

    const reply = await scrape(`Bearer ${TOKEN}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers["content-type"]).toContain("text/plain");
    const text = reply.body;
    // One series for the route, whatever the ids.
    expect(text).toMatch(
      /voltio_http_request_duration_seconds_count\{route="\/api\/products\/:id",method="GET",status="200"\} 3/,
    );
    expect(text).not.toContain('route="/api/products/1"');
    expect(text).toMatch(/voltio_catalog_cache_total\{result="hit"\} \d+/);
    expect(text).toMatch(/voltio_checkouts_total\{outcome="started"\} 1/);
    expect(text).toMatch(/voltio_search_index_products [1-9]\d*/);
    expect(text).toMatch(/voltio_mail_outbox_messages/);
  });

  it("counts the background workers' rounds, wherever they were run from", async () => {
    const rounds = async () =>
      Number(
        /voltio_worker_rounds_total\{worker="payments",outcome="ok"\} (\d+)/.exec(
          (await scrape(`Bearer ${TOKEN}`)).body,
        )?.[1],
      );
    const before = await rounds();
    await t.app.paymentsWorker.runOnce();
    expect(await rounds()).toBe(before + 1);
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(text).toContain('voltio_worker_consecutive_failures{worker="stock-alerts"} 0');
    expect(text).toMatch(/voltio_worker_last_success_timestamp_seconds\{worker="payments"\} \d/);
  });
});

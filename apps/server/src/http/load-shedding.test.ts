import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../test/app";
import type { App } from "../app";
import { loadConfig } from "../config";
import { LOAD_SHED_RETRY_AFTER_SECONDS } from "./load-shedding";

const TOKEN = "metrics-token-for-the-tests-0123";

let t: TestContext | undefined;
let stopHog: (() => void) | undefined;
afterEach(async () => {
  stopHog?.();
  stopHog = undefined;
  await t?.close();
  t = undefined;
});

/**
 * A CPU-busy handler in this process (the app's own): every timer turn holds the event loop for 30 ms, as a
 * burst of expensive requests would, so the loop's delay stays far past a 1 ms limit for as long as it runs.
 */
function hogTheEventLoop(): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + 30;
    while (performance.now() < until);
  }, 1);
  return () => clearInterval(timer);
}

/** Waits for the plugin's own sampler (every LOAD_SHED_SAMPLE_MS) to see the pressure come or go. */
async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const scrape = async (app: TestContext["app"]) =>
  (await app.inject({ url: "/api/metrics", headers: { authorization: `Bearer ${TOKEN}` } })).body;
/** A series' value; a loop blocked for a whole sample has no delay reading, which Prometheus writes +Inf. */
const metric = (text: string, series: string) => {
  const value = new RegExp(`^${series.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1];
  return value === "+Inf" ? Infinity : Number(value);
};
const shedCount = async (app: TestContext["app"], reason: string) =>
  metric(await scrape(app), `voltio_requests_shed_total{reason="${reason}"}`);

/**
 * Readiness is never shed: it answers for itself, ready or naming what isn't yet (a fresh app may still be
 * building its search index or connecting its LISTEN on a loaded machine), never "busy".
 */
async function expectReadinessAnswered(app: App) {
  const ready = await app.inject({ url: "/api/health/ready" });
  expect(ready.json(), ready.body).toEqual({
    status: expect.stringMatching(/^(ready|unavailable)$/),
    failing: expect.not.arrayContaining(["draining"]),
  });
}

describe("load shedding", () => {
  it("answers 503 with Retry-After while the event loop lags, and health and metrics still answer", async () => {
    t = await createTestApp({ env: { MAX_EVENT_LOOP_DELAY_MS: "1", METRICS_TOKEN: TOKEN } });
    const { app } = t;
    stopHog = hogTheEventLoop();
    await until(() => app.isUnderPressure());
    // Just started (this first request readies the app): the lag of starting counts for nothing. The search
    // builds the index that readiness needs below.
    expect((await app.inject({ url: "/api/products?search=laptop" })).statusCode).toBe(200);
    expect(await shedCount(app, "event_loop_delay")).toBe(0);

    // Two samples later the lag counts.
    let refused = await app.inject({ url: "/api/products" });
    while (refused.statusCode === 200) refused = await app.inject({ url: "/api/products" });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers["retry-after"]).toBe(String(LOAD_SHED_RETRY_AFTER_SECONDS));
    // The API's error shape, with the API's security headers.
    expect(refused.json()).toEqual({ error: "The store is busy: try again in a few seconds" });
    expect(refused.headers["x-content-type-options"]).toBe("nosniff");
    // Before the route guard: a signed-in route is refused without reading its caller.
    const mine = await app.inject({ url: "/api/user", headers: await t.bearer(2) });
    expect(mine.statusCode).toBe(503);

    expect((await app.inject({ url: "/api/health/live" })).statusCode).toBe(200);
    await expectReadinessAnswered(app);
    expect(app.isUnderPressure()).toBe(true);
    expect(await shedCount(app, "event_loop_delay")).toBe(2);
    expect(metric(await scrape(app), "voltio_event_loop_delay_seconds")).toBeGreaterThan(0.001);

    stopHog();
    await until(() => !app.isUnderPressure());
    expect((await app.inject({ url: "/api/products" })).statusCode).toBe(200);
  });

  it("answers 503 while the heap in use passes its share of V8's limit", async () => {
    t = await createTestApp({
      env: { MAX_EVENT_LOOP_DELAY_MS: "0", MAX_HEAP_USED_PERCENT: "1", METRICS_TOKEN: TOKEN },
    });
    const { app } = t;
    // 1% of the heap limit is ~41 MB with Node's default limit; 48 MB of doubles kept alive pass it.
    const ballast = Array.from({ length: 6_000_000 }, (_, i) => i + 0.5);
    await until(() => app.isUnderPressure());
    const refused = await app.inject({ url: "/api/products/1" });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers["retry-after"]).toBe(String(LOAD_SHED_RETRY_AFTER_SECONDS));
    expect((await app.inject({ url: "/api/health/live" })).statusCode).toBe(200);
    expect(await shedCount(app, "heap")).toBe(1);
    expect(ballast.length).toBe(6_000_000);
  });

  it("answers 503 to a request past MAX_REQUESTS_IN_FLIGHT, until one in flight has finished", async () => {
    t = await createTestApp({
      env: { MAX_EVENT_LOOP_DELAY_MS: "0", MAX_REQUESTS_IN_FLIGHT: "1", METRICS_TOKEN: TOKEN },
    });
    const { app } = t;
    // A request whose body is still coming is in flight: it got past the limit before its body was read.
    const body = new PassThrough();
    const slow = app.inject({
      method: "POST",
      url: "/api/user/token",
      headers: { "content-type": "application/json" },
      payload: body,
    });
    const inFlight = async () => metric(await scrape(app), "voltio_http_requests_in_flight");
    while ((await inFlight()) !== 1);
    const refused = await app.inject({ url: "/api/products/1" });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers["retry-after"]).toBe(String(LOAD_SHED_RETRY_AFTER_SECONDS));
    expect(refused.json()).toEqual({ error: "The store is busy: try again in a few seconds" });
    await expectReadinessAnswered(app);
    expect(await shedCount(app, "in_flight")).toBe(1);

    body.end(JSON.stringify({ token: "not-a-token" }));
    expect((await slow).statusCode).toBeLessThan(500);
    while ((await inFlight()) !== 0);
    expect((await app.inject({ url: "/api/products/1" })).statusCode).toBe(200);
  });

  it("is off with every limit at 0: a lagging event loop refuses nothing", async () => {
    t = await createTestApp({
      env: {
        MAX_EVENT_LOOP_DELAY_MS: "0",
        MAX_HEAP_USED_PERCENT: "0",
        MAX_REQUESTS_IN_FLIGHT: "0",
        METRICS_TOKEN: TOKEN,
      },
    });
    stopHog = hogTheEventLoop();
    expect(t.app.hasDecorator("isUnderPressure")).toBe(false);
    expect((await t.app.inject({ url: "/api/products" })).statusCode).toBe(200);
    expect(await shedCount(t.app, "event_loop_delay")).toBe(0);
  });
});

describe("load shedding settings", () => {
  const env = {
    DATA_DIR: mkdtempSync(join(tmpdir(), "voltio-shedding-")),
    JWT_SECRET: "x".repeat(40),
  };
  it("default to 90% of the heap limit and 200 requests in flight, the event loop's delay unwatched", () => {
    expect(loadConfig(env).loadShedding).toEqual({
      maxEventLoopDelayMs: 0,
      maxHeapUsedPercent: 90,
      maxRequestsInFlight: 200,
    });
    const off = { MAX_EVENT_LOOP_DELAY_MS: "0", MAX_HEAP_USED_PERCENT: "0", MAX_REQUESTS_IN_FLIGHT: "0" };
    expect(loadConfig({ ...env, ...off }).loadShedding).toEqual({
      maxEventLoopDelayMs: 0,
      maxHeapUsedPercent: 0,
      maxRequestsInFlight: 0,
    });
  });

  it.for([
    ["MAX_EVENT_LOOP_DELAY_MS", "-1", 'MAX_EVENT_LOOP_DELAY_MS="-1" must be a whole number from 0 to 60000'],
    ["MAX_EVENT_LOOP_DELAY_MS", "0.5", 'MAX_EVENT_LOOP_DELAY_MS="0.5" must be a whole number'],
    ["MAX_HEAP_USED_PERCENT", "101", 'MAX_HEAP_USED_PERCENT="101" must be a whole number from 0 to 100'],
    ["MAX_HEAP_USED_PERCENT", "90%", 'MAX_HEAP_USED_PERCENT="90%" must be a whole number from 0 to 100'],
    [
      "MAX_REQUESTS_IN_FLIGHT",
      "lots",
      'MAX_REQUESTS_IN_FLIGHT="lots" must be a whole number from 0 to 100000',
    ],
  ])("refuses %s=%s, saying why", ([name, value, says]) => {
    expect(() => loadConfig({ ...env, [name!]: value })).toThrow(says);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../test/app";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** What every reply carries (ASVS 14.4): no sniffing, HTTPS only, no referrer, not to be framed. */
const everywhere = (headers: Record<string, unknown>) => {
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["cross-origin-resource-policy"]).toBe("same-origin");
  expect(headers["x-powered-by"]).toBeUndefined();
};

describe("security headers", () => {
  it.each([
    ["a listing", "/api/products?limit=1", 200],
    ["a refusal", "/api/products?limit=x", 400],
    ["a refusal by the access guard", "/api/user", 401],
    ["an unknown API path", "/api/nothing-here", 404],
  ])("on %s of the API: nothing may load, run or frame the JSON", async (_name, url, status) => {
    const reply = await t.app.inject({ url });
    expect(reply.statusCode).toBe(status);
    everywhere(reply.headers);
    expect(reply.headers["content-security-policy"]).toBe("default-src 'none';frame-ancestors 'none'");
    expect(reply.headers["x-frame-options"]).toBe("DENY");
  });

  it.each([
    ["the home page", "/", 200],
    ["the API's documentation page", "/api/docs", 200],
    ["the API's documentation page with a query", "/api/docs?x=1", 200],
    ["the newsletter's unsubscribe page", "/api/newsletter/unsubscribe?token=not-a-token", 400],
  ])("on %s: the page policy", async (_name, url, status) => {
    const reply = await t.app.inject({ url });
    expect(reply.statusCode).toBe(status);
    everywhere(reply.headers);
    const csp = String(reply.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(reply.headers["x-frame-options"]).toBe("SAMEORIGIN");
  });
});

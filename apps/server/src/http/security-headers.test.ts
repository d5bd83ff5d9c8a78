import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../test/app";
import { shop } from "../../test/shop";
import { PERMISSIONS_POLICY } from "./security-headers";

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
    // Nothing runs in a JSON reply, so no feature could be used there: the policy is the pages'.
    expect(reply.headers["permissions-policy"]).toBeUndefined();
  });

  it.each([
    ["the home page", "/", 200],
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
    // Styles only from the store's files, or inline with this reply's nonce.
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toMatch(/(^|;)style-src (('nonce-[A-Za-z0-9+/]{22}==' )?)'self'(;|$)/);
    expect(reply.headers["permissions-policy"]).toBe(PERMISSIONS_POLICY);
  });

  it("refuses the powerful features the store never uses, and keeps passkeys to its own pages", () => {
    const policy = Object.fromEntries(PERMISSIONS_POLICY.split(", ").map((entry) => entry.split("=")));
    for (const feature of ["camera", "microphone", "geolocation", "payment", "usb", "serial", "hid"])
      expect(policy[feature], feature).toBe("()");
    expect(policy["publickey-credentials-get"]).toBe("(self)");
    expect(policy["publickey-credentials-create"]).toBe("(self)");
  });
});

/** The nonce a page's policy allows inline styles with, and the page's own uses of it. */
const nonceOf = (headers: Record<string, unknown>) =>
  /(?:^|;)style-src 'nonce-([^']+)' 'self'(?:;|$)/.exec(String(headers["content-security-policy"]))?.[1];

describe("inline styles of the pages", () => {
  it.each([
    ["the home page", "/"],
    ["a product page", "/product/1"],
    ["a page the browser draws", "/admin/products"],
    ["the not-found page", "/no-such-page"],
  ])("on %s: a nonce of its own, handed to the app in a meta element", async (_name, url) => {
    const first = await t.app.inject({ url });
    const second = await t.app.inject({ url });
    const nonce = nonceOf(first.headers);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonceOf(second.headers)).not.toBe(nonce);
    expect(first.body).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
    expect(second.body).not.toContain(nonce);
  });

  it("on the newsletter's unsubscribe page: its style element carries the reply's nonce", async () => {
    const reply = await t.app.inject({ url: "/api/newsletter/unsubscribe?token=not-a-token" });
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toContain(`<style nonce="${nonceOf(reply.headers)}">`);
    expect(reply.body.match(/<style/g)).toHaveLength(1);
  });

  it("on the sandbox's card page: its style element carries the reply's nonce", async () => {
    const s = shop(t);
    const me = await s.newShopper();
    await s.buyNow(me, await s.newProduct());
    const started = await t.app.inject({
      method: "POST",
      url: "/api/sandbox/pay",
      headers: me,
      payload: { baseURL: t.config.publicUrl },
    });
    expect(started.statusCode, started.body).toBe(200);
    const card = await t.app.inject({
      url: new URL(started.json<{ init_point: string }>().init_point).pathname,
    });
    expect(card.statusCode).toBe(200);
    expect(card.headers["permissions-policy"]).toBe(PERMISSIONS_POLICY);
    expect(card.body).toContain(`<style nonce="${nonceOf(card.headers)}">`);
    expect(card.body.match(/<style/g)).toHaveLength(1);
  });

  it.each(["/api/docs", "/api/docs?x=1", "/api/docs/static/index.css"])(
    "on the API's documentation (%s): inline styles, which swagger-ui writes, and the pages' policy otherwise",
    async (url) => {
      const reply = await t.app.inject({ url });
      expect(reply.statusCode).toBe(200);
      everywhere(reply.headers);
      const csp = String(reply.headers["content-security-policy"]);
      expect(csp).toMatch(/(^|;)style-src 'unsafe-inline' 'self'(;|$)/);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("nonce-");
      expect(reply.headers["permissions-policy"]).toBe(PERMISSIONS_POLICY);
    },
  );

  it("keeps inline styles to the documentation: a path that only starts alike gets the API's policy", async () => {
    const reply = await t.app.inject({ url: "/api/docsx" });
    expect(reply.headers["content-security-policy"]).toBe("default-src 'none';frame-ancestors 'none'");
  });
});

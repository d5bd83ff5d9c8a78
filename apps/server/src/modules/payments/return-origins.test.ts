import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, type Headers, type Shop } from "../../../test/shop";
import { checkouts } from "../../db/schema";

/**
 * Where a checkout sends the shopper back is the store's configured address (PUBLIC_URL or RETURN_ORIGINS),
 * never one the request names for itself with Host or X-Forwarded-Host: else anyone could send a shopper
 * through the store's own card page to a look-alike of the store.
 */
const PUBLIC_URL = "https://shop.example.com";
const OTHER_ORIGIN = "https://www.shop.example.com";

let t: TestContext;
let store: Shop;

beforeAll(async () => {
  // Behind a proxy that is trusted, so that X-Forwarded-Host would be believed if anything read it.
  t = await createTestApp({
    env: { PUBLIC_URL, RETURN_ORIGINS: ` ${OTHER_ORIGIN}/ ,http://localhost:5173`, TRUST_PROXY: "true" },
  });
  store = shop(t);
});
afterAll(() => t.close());

const pay = (headers: Headers, baseURL: string, requestHeaders: Record<string, string> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/sandbox/pay",
    headers: { ...headers, ...requestHeaders },
    payload: { baseURL },
  });

/** The shopper's browser on the sandbox's card page, paying with the card that is approved. */
const payWithCard = (initPoint: string) =>
  t.app.inject({
    method: "POST",
    url: new URL(initPoint).pathname,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" }).toString(),
  });

const checkoutsOf = async (headers: Headers) => {
  const me = await t.app.inject({ url: "/api/user", headers });
  return t.database.db
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(eq(checkouts.userId, me.json<{ id: number }>().id));
};

describe("a checkout's return address", () => {
  it.each([
    ["the request's Host", { host: "evil.example" }],
    [
      "X-Forwarded-Host from a trusted proxy",
      { "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" },
    ],
  ])("is refused when only %s names it: 400 naming baseURL, and no checkout", async (_name, spoofed) => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const reply = await pay(me, "http://evil.example", spoofed);
    expect(reply.statusCode, reply.body).toBe(400);
    expect(reply.json()).toEqual({
      error: "baseURL: must be one of the store's own addresses (PUBLIC_URL or RETURN_ORIGINS)",
      details: [
        {
          field: "baseURL",
          reason: "must be one of the store's own addresses (PUBLIC_URL or RETURN_ORIGINS)",
        },
      ],
    });
    expect(await checkoutsOf(me)).toEqual([]);
  });

  it.each([
    ["PUBLIC_URL", `${PUBLIC_URL}/`, `${PUBLIC_URL}/purchase/success`],
    [
      "an origin of RETURN_ORIGINS, under a path",
      `${OTHER_ORIGIN}/store/`,
      `${OTHER_ORIGIN}/store/purchase/success`,
    ],
  ])("may be %s, and the card page sends the shopper back there", async (_name, baseURL, success) => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    // Whatever Host the request came with: the address is checked against the configuration, not against it.
    const started = await pay(me, baseURL, { host: "evil.example" });
    expect(started.statusCode, started.body).toBe(200);
    const { init_point } = started.json<{ init_point: string }>();
    expect(new URL(init_point).origin).toBe(new URL(baseURL).origin);
    const carded = await payWithCard(init_point);
    expect(carded.statusCode, carded.body).toBe(303);
    const back = new URL(String(carded.headers.location));
    expect(back.origin + back.pathname).toBe(success);
    expect(back.searchParams.get("status")).toBe("approved");
  });

  it.each([
    ["another port of the store's host", "https://shop.example.com:8443"],
    ["plain http of PUBLIC_URL's https host", "http://shop.example.com"],
    ["a subdomain not listed", "https://evil.shop.example.com"],
    ["a look-alike with the store's host as user name", "https://shop.example.com@evil.example"],
  ])("refuses %s", async (_name, baseURL) => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const reply = await pay(me, baseURL);
    expect(reply.statusCode, reply.body).toBe(400);
    expect(reply.json()).toMatchObject({ details: [{ field: "baseURL" }] });
  });
});

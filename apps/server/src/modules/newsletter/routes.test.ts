import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { signAccessToken } from "../auth/access-token";
import { createTestApp, type TestContext } from "../../../test/app";
import { signUnsubscribeToken, unsubscribeUrl } from "./service";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const subscribed = async (id: number) => {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
  return row!.newsletterSubscription;
};
const optIn = async (id: number, value: boolean) => {
  const reply = await t.app.inject({
    method: "PUT",
    url: "/api/user",
    headers: await t.bearer(id),
    payload: { newsletterSubscription: value },
  });
  expect(reply.statusCode).toBe(200);
};
const post = (token: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "POST",
    url: `/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`,
    headers,
  });

describe("newsletter opt-in", () => {
  it("is saved in newsletterSubscription", async () => {
    await optIn(2, true);
    expect(await subscribed(2)).toBe(true);
    await optIn(2, false);
    expect(await subscribed(2)).toBe(false);
  });
});

describe("unsubscribe link", () => {
  it("points at the store's public URL with a signed token", async () => {
    const url = await unsubscribeUrl(t.config, "shopper@voltio.test");
    expect(url).toMatch(/^http:\/\/localhost:3000\/api\/newsletter\/unsubscribe\?token=[\w.-]+$/);
  });

  it("asks first on GET (mail scanners open links), then unsubscribes on POST", async () => {
    await optIn(2, true);
    const token = await signUnsubscribeToken(t.config.jwtSecret, "Shopper@voltio.test");
    const page = await t.app.inject({ url: `/api/newsletter/unsubscribe?token=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("shopper@voltio.test");
    expect(page.body).toContain('<form method="post"');
    expect(await subscribed(2)).toBe(true);

    const done = await post(token);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain("You have been unsubscribed");
    expect(await subscribed(2)).toBe(false);
  });

  it("speaks Spanish to Spanish readers and answers JSON when asked", async () => {
    await optIn(2, true);
    const token = await signUnsubscribeToken(t.config.jwtSecret, "shopper@voltio.test");
    const page = await t.app.inject({
      url: `/api/newsletter/unsubscribe?token=${token}`,
      headers: { "accept-language": "es-ES,es;q=0.9" },
    });
    expect(page.body).toContain("Darme de baja");
    const json = await post(token, { accept: "application/json" });
    expect(json.json()).toEqual({ msg: "Unsubscribed" });
    expect(await subscribed(2)).toBe(false);
  });

  it("accepts a mail client's one-click POST (RFC 8058)", async () => {
    await optIn(2, true);
    const token = await signUnsubscribeToken(t.config.jwtSecret, "shopper@voltio.test");
    const reply = await t.app.inject({
      method: "POST",
      url: `/api/newsletter/unsubscribe?token=${token}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(reply.statusCode).toBe(200);
    expect(await subscribed(2)).toBe(false);
  });

  it("refuses forged, altered, expired and other kinds of tokens", async () => {
    await optIn(2, true);
    const genuine = await signUnsubscribeToken(t.config.jwtSecret, "shopper@voltio.test");
    const [header, , signature] = genuine.split(".");
    const otherPayload = Buffer.from(
      JSON.stringify({ sub: "admin@voltio.test", aud: "newsletter-unsubscribe", iss: "voltio" }),
    ).toString("base64url");
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("shopper@voltio.test")
      .setAudience("newsletter-unsubscribe")
      .setIssuer("voltio")
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const candidates = {
      otherSecret: await signUnsubscribeToken(
        "another-secret-that-is-long-enough-for-hs256",
        "shopper@voltio.test",
      ),
      altered: `${header}.${otherPayload}.${signature}`,
      accessToken: await signAccessToken(2, t.config.jwtSecret),
      expired,
      garbage: "not-a-token",
    };
    for (const [name, token] of Object.entries(candidates)) {
      const reply = await post(token, { accept: "application/json" });
      expect(reply.statusCode, name).toBe(400);
      const page = await t.app.inject({
        url: `/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`,
      });
      expect(page.statusCode, name).toBe(400);
    }
    expect(await subscribed(2)).toBe(true);
    expect(await subscribed(1)).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair, type CryptoKey } from "jose";
import { and, eq } from "drizzle-orm";
import { auditLog, users } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";
import { GOOGLE_CLIENT_ID, startFakeGoogle, type FakeGoogle } from "../../../test/fake-google";

let t: TestContext;
let google: FakeGoogle;
let strangerKey: CryptoKey;

beforeAll(async () => {
  google = await startFakeGoogle();
  strangerKey = (await generateKeyPair("RS256")).privateKey;
  t = await createTestApp({ env: google.env });
});
afterAll(async () => {
  await t.close();
  await google.close();
});

const idToken: FakeGoogle["idToken"] = (email, options) => google.idToken(email, options);

const googleLogin = (tokenId: string) =>
  t.app.inject({ method: "POST", url: "/api/google/login", payload: { tokenId } });

describe("POST /api/google/login", () => {
  it("creates a Google account on first sign-in and signs it in afterwards", async () => {
    const first = await googleLogin(await idToken("grace@gmail.test"));
    expect(first.statusCode, first.body).toBe(200);
    const tokens = first.json<{ msg: string; accessToken: string; refreshToken: string }>();
    expect(tokens.msg).toBe("Logged in");
    const me = await t.app.inject({
      url: "/api/user",
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(me.json()).toMatchObject({
      firstName: "Grace",
      lastName: "Hopper",
      email: "grace@gmail.test",
      googleUser: true,
      rol: "user",
      profilePicture: "https://lh3.googleusercontent.com/a/photo",
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.email, "grace@gmail.test"));
    expect(row!.passwordHash).toBeNull();

    const again = await googleLogin(await idToken("GRACE@gmail.test"));
    expect(again.statusCode).toBe(200);
    const all = await t.database.db.select().from(users).where(eq(users.googleUser, true));
    expect(all).toHaveLength(1);

    // The e-mail step now answers with the Google flag, so the client starts Google sign-in.
    const check = await t.app.inject({
      method: "POST",
      url: "/api/user/email",
      payload: { email: "grace@gmail.test" },
    });
    expect(check.json()).toEqual({ msg: "email exists", googleUser: true });
    // A Google account has no password to log in with.
    const password = await t.app.inject({
      method: "POST",
      url: "/api/user/login",
      payload: { email: "grace@gmail.test", password: "anything-1" },
    });
    expect(password.statusCode).toBe(401);
  });

  it("refuses a token signed by another key (forged)", async () => {
    const reply = await googleLogin(await idToken("mallory@gmail.test", { key: strangerKey }));
    expect(reply.statusCode).toBe(401);
    expect(reply.json().error).toMatch(/invalid google token/i);
  });

  it("refuses an expired token", async () => {
    expect((await googleLogin(await idToken("late@gmail.test", { expiresIn: -120 }))).statusCode).toBe(401);
  });

  it("refuses a token for another audience (client id)", async () => {
    const reply = await googleLogin(
      await idToken("other@gmail.test", { audience: "someone-else.apps.googleusercontent.com" }),
    );
    expect(reply.statusCode).toBe(401);
  });

  it("refuses a token from another issuer", async () => {
    const reply = await googleLogin(
      await idToken("evil@gmail.test", { issuer: "https://accounts.evil.test" }),
    );
    expect(reply.statusCode).toBe(401);
  });

  it("refuses an unverified e-mail, an unknown key id, an unsigned token and garbage", async () => {
    const unverified = await idToken("unverified@gmail.test", { claims: { email_verified: false } });
    expect((await googleLogin(unverified)).statusCode).toBe(401);
    expect((await googleLogin(await idToken("kid@gmail.test", { kid: "unknown" }))).statusCode).toBe(401);
    const [header, payload] = (await idToken("none@gmail.test")).split(".");
    const noneHeader = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    expect((await googleLogin(`${noneHeader}.${payload}.`)).statusCode).toBe(401);
    expect((await googleLogin(`${header}.${payload}.`)).statusCode).toBe(401);
    expect((await googleLogin("not-a-token")).statusCode).toBe(401);
    const created = await t.database.db.select().from(users).where(eq(users.googleUser, true));
    expect(created.map((u) => u.email)).toEqual(["grace@gmail.test"]);
  });

  it("links a password account only when Google verifies its e-mail, records the link, then finds it by subject", async () => {
    const signedInAs = async (reply: { statusCode: number; body: string; json: () => unknown }) => {
      expect(reply.statusCode, reply.body).toBe(200);
      const { accessToken } = reply.json() as { accessToken: string };
      const me = await t.app.inject({
        url: "/api/user",
        headers: { authorization: `Bearer ${accessToken}` },
      });
      return me.json<{ id: number }>().id;
    };
    const unverified = await idToken("shopper@voltio.test", { claims: { email_verified: false } });
    expect((await googleLogin(unverified)).statusCode).toBe(401);
    expect((await t.database.db.select().from(users).where(eq(users.id, 2)))[0]!.googleSubject).toBeNull();

    expect(await signedInAs(await googleLogin(await idToken("shopper@voltio.test")))).toBe(2);
    const [linked] = await t.database.db.select().from(users).where(eq(users.id, 2));
    expect(linked).toMatchObject({ googleSubject: "google-shopper@voltio.test", googleUser: false });
    expect(linked!.passwordHash).not.toBeNull();
    const links = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.google-link"), eq(auditLog.entityId, "2")));
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ actorId: 2, entity: "user" });

    // The Google account's address changes: the subject still finds the account, verified or not.
    const moved = await idToken("shopper.new@gmail.test", {
      subject: "google-shopper@voltio.test",
      claims: { email_verified: false },
    });
    expect(await signedInAs(await googleLogin(moved))).toBe(2);
    // Another Google account claiming the linked address doesn't take it over.
    const other = await googleLogin(await idToken("shopper@voltio.test", { subject: "someone-else" }));
    expect(other.statusCode).toBe(409);
  });

  it("fetched the published keys from the configured URL", () => {
    expect(google.keyRequests()).toBeGreaterThan(0);
  });

  it("offers Google sign-in on the login screen", async () => {
    const reply = await t.app.inject({ url: "/api/auth/options" });
    expect(reply.json()).toEqual({ googleClientId: GOOGLE_CLIENT_ID });
    // The page may then load Google's sign-in script.
    const page = await t.app.inject({ url: "/login" });
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("https://accounts.google.com/gsi/client");
  });
});

describe("without GOOGLE_CLIENT_ID", () => {
  it("doesn't offer or accept Google sign-in", async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ url: "/api/auth/options" })).json()).toEqual({ googleClientId: null });
      const reply = await plain.app.inject({
        method: "POST",
        url: "/api/google/login",
        payload: { tokenId: await idToken("grace@gmail.test") },
      });
      expect(reply.statusCode).toBe(404);
      const page = await plain.app.inject({ url: "/login" });
      const csp = String(page.headers["content-security-policy"]);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("accounts.google.com");
    } finally {
      await plain.close();
    }
  });
});

import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { refreshTokens } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";
import { signAccessToken } from "./access-token";

const ADMIN = { email: "admin@voltio.test", password: "Admin1234!" };
const SHOPPER = { email: "shopper@voltio.test", password: "Shopper1234!" };

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload, headers });

async function login(credentials = SHOPPER) {
  const reply = await post("/api/user/login", credentials);
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ msg: string; accessToken: string; refreshToken: string }>();
}

const refresh = (token: string) => post("/api/user/token", { token });
const me = (accessToken: string) =>
  t.app.inject({ url: "/api/user", headers: { authorization: `Bearer ${accessToken}` } });

describe("POST /api/user/email", () => {
  it("says whether the e-mail has an account, whatever its case", async () => {
    const known = await post("/api/user/email", { email: "  Shopper@Voltio.TEST " });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ msg: "email exists", googleUser: false });
    const unknown = await post("/api/user/email", { email: "nobody@voltio.test" });
    expect(unknown.json()).toEqual({ msg: "email doesn't exist", googleUser: false });
  });

  it("needs a valid e-mail", async () => {
    const empty = await post("/api/user/email", { email: "" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details[0]).toEqual({ field: "email", reason: "E-mail is required" });
    const bad = await post("/api/user/email", { email: "not-an-email" });
    expect(bad.json().details[0]).toEqual({ field: "email", reason: "Enter a valid e-mail" });
  });
});

describe("POST /api/user/login", () => {
  it("answers msg, a 15-minute access token and a refresh token", async () => {
    const tokens = await login({ ...SHOPPER, email: "SHOPPER@voltio.test" });
    expect(tokens.msg).toBe("Logged in");
    const [, payload] = tokens.accessToken.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, number>;
    expect(claims.exp! - claims.iat!).toBe(15 * 60);
    expect(tokens.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const user = await me(tokens.accessToken);
    expect(user.json()).toMatchObject({ id: 2, email: "shopper@voltio.test" });
  });

  it("stores only a hash of the refresh token", async () => {
    const tokens = await login();
    const rows = await t.database.db.select().from(refreshTokens);
    expect(rows.some((row) => row.tokenHash === tokens.refreshToken)).toBe(false);
    expect(rows.every((row) => /^[a-f0-9]{64}$/.test(row.tokenHash))).toBe(true);
  });

  it("refuses a wrong password and a missing account alike, with 'incorrect' in the error", async () => {
    const wrong = await post("/api/user/login", { ...SHOPPER, password: "Wrong-password1" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toContain("incorrect");
    const missing = await post("/api/user/login", { email: "nobody@voltio.test", password: "whatever1" });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual(wrong.json());
  });
});

describe("access tokens", () => {
  it("answer 403 TokenExpiredError once expired", async () => {
    const expired = await signAccessToken(2, t.config.jwtSecret, -10);
    const reply = await me(expired);
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toEqual({ error: { name: "TokenExpiredError", message: "jwt expired" } });
  });

  it("refuse a token signed with another secret, and guests", async () => {
    const forged = await signAccessToken(1, "another-secret-that-is-long-enough-for-hs256");
    expect((await me(forged)).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/user" })).statusCode).toBe(401);
  });

  it("refuse a well-signed token without a live session", async () => {
    expect((await me(await signAccessToken(2, t.config.jwtSecret))).statusCode).toBe(401);
    const unknown = await signAccessToken(2, t.config.jwtSecret, 60, "8f6a4f83-3f0e-4c3e-9a59-3d7b4f3c2a10");
    expect((await me(unknown)).statusCode).toBe(401);
    expect((await me(await signAccessToken(2, t.config.jwtSecret, 60, "not-a-uuid"))).statusCode).toBe(401);
    // Another user's session doesn't lend itself either.
    const { accessToken } = await login(ADMIN);
    const [, payload] = accessToken.split(".");
    const { sid } = JSON.parse(Buffer.from(payload!, "base64url").toString()) as { sid: string };
    expect((await me(await signAccessToken(2, t.config.jwtSecret, 60, sid))).statusCode).toBe(401);
  });
});

const logout = (token: string) =>
  t.app.inject({ method: "DELETE", url: "/api/user/token", payload: { token } });
const sessionOf = (refreshToken: string) =>
  eq(refreshTokens.tokenHash, createHash("sha256").update(refreshToken).digest("hex"));

describe("POST /api/user/token (refresh)", () => {
  it("answers exactly {token}: a new access token of the same session", async () => {
    const first = await login();
    const reply = await refresh(first.refreshToken);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(Object.keys(reply.json())).toEqual(["token"]);
    const { token } = reply.json<{ token: string }>();
    const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString());
    expect(claims(token).sid).toBe(claims(first.accessToken).sid);
    expect((await me(token)).statusCode).toBe(200);
  });

  it("keeps working with the same refresh token for the whole session, as SPEC's client needs", async () => {
    const { refreshToken } = await login();
    for (let i = 0; i < 5; i++) {
      const reply = await refresh(refreshToken);
      expect(reply.statusCode, reply.body).toBe(200);
      expect((await me(reply.json<{ token: string }>().token)).statusCode).toBe(200);
    }
  });

  it("lets any number of simultaneous refreshes with the same token succeed (two tabs)", async () => {
    const { refreshToken } = await login();
    const replies = await Promise.all(Array.from({ length: 10 }, () => refresh(refreshToken)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect((await refresh(refreshToken)).statusCode).toBe(200);
  });

  it("refuses unknown tokens", async () => {
    expect((await refresh("x".repeat(43))).statusCode).toBe(401);
  });

  it("slides the idle deadline on each refresh, and ends an idle session with its access tokens", async () => {
    const { accessToken, refreshToken } = await login();
    const db = t.database.db;
    // Close to its idle deadline, a refresh moves it a whole idle period ahead again.
    await db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(sessionOf(refreshToken));
    expect((await refresh(refreshToken)).statusCode).toBe(200);
    const [slid] = await db.select().from(refreshTokens).where(sessionOf(refreshToken));
    expect(slid!.expiresAt.getTime()).toBeGreaterThan(Date.now() + (t.config.sessionIdleSeconds - 60) * 1000);
    // Left alone past its deadline, the session is over.
    await db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(sessionOf(refreshToken));
    expect((await refresh(refreshToken)).statusCode).toBe(401);
    expect((await me(accessToken)).statusCode).toBe(401);
  });

  it("ends a session at its maximum age even when refreshed all along", async () => {
    const { refreshToken } = await login();
    // The session started 13 hours ago (the maximum is 12): its idle deadline is still ahead, but it's over.
    await t.database.db
      .update(refreshTokens)
      .set({ createdAt: new Date(Date.now() - 13 * 3600_000) })
      .where(sessionOf(refreshToken));
    expect((await refresh(refreshToken)).statusCode).toBe(401);
  });

  it("never slides past the maximum age", async () => {
    const { refreshToken } = await login();
    const startedAt = new Date(Date.now() - (t.config.sessionMaxSeconds - 60) * 1000);
    await t.database.db.update(refreshTokens).set({ createdAt: startedAt }).where(sessionOf(refreshToken));
    expect((await refresh(refreshToken)).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(refreshTokens).where(sessionOf(refreshToken));
    expect(row!.expiresAt.getTime()).toBe(startedAt.getTime() + t.config.sessionMaxSeconds * 1000);
  });
});

describe("ending sessions", () => {
  /** A registered account of its own, so ending its sessions can't disturb other tests. */
  async function account(name: string) {
    const email = `${name}@voltio.test`;
    const password = "Session-test-1";
    const created = await post("/api/user", { firstName: name, lastName: "Session", email, password });
    expect(created.statusCode, created.body).toBe(201);
    return { id: created.json<{ id: number }>().id, email, password };
  }

  const put = (url: string, accessToken: string, payload: object) =>
    t.app.inject({ method: "PUT", url, payload, headers: { authorization: `Bearer ${accessToken}` } });

  /** The session is over: its refresh token, and every access token it issued, are refused at once. */
  async function expectEnded(session: { accessToken: string; refreshToken: string }, refreshed: string) {
    expect((await refresh(session.refreshToken)).statusCode).toBe(401);
    expect((await me(session.accessToken)).statusCode).toBe(401);
    expect((await me(refreshed)).statusCode).toBe(401);
  }
  const refreshedAccess = async (refreshToken: string) => {
    const reply = await refresh(refreshToken);
    expect(reply.statusCode).toBe(200);
    return reply.json<{ token: string }>().token;
  };

  it("logout (DELETE /user/token) ends that session only", async () => {
    const tokens = await login(ADMIN);
    const other = await login(ADMIN);
    const refreshed = await refreshedAccess(tokens.refreshToken);
    const out = await logout(tokens.refreshToken);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ msg: "Logged out" });
    await expectEnded(tokens, refreshed);
    expect((await me(other.accessToken)).statusCode).toBe(200);
    expect((await refresh(other.refreshToken)).statusCode).toBe(200);
    // Unknown tokens change nothing and reveal nothing.
    expect((await logout("unknown")).statusCode).toBe(200);
  });

  it("a password change ends the other sessions and keeps the one that made it", async () => {
    const user = await account("pat");
    const here = await login(user);
    const elsewhere = await login(user);
    const refreshed = await refreshedAccess(elsewhere.refreshToken);
    const changed = await put("/api/user", here.accessToken, {
      prevPassword: user.password,
      newPassword: "Session-test-2",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await expectEnded(elsewhere, refreshed);
    expect((await me(here.accessToken)).statusCode).toBe(200);
    expect((await refresh(here.refreshToken)).statusCode).toBe(200);
  });

  it("a role change keeps the user's sessions and tells them on their next request", async () => {
    const user = await account("ray");
    const session = await login(user);
    const admin = await login(ADMIN);
    const allUsers = (accessToken: string) =>
      t.app.inject({ url: "/api/user/all", headers: { authorization: `Bearer ${accessToken}` } });
    expect((await allUsers(session.accessToken)).headers["voltio-role-changed"]).toBeUndefined();

    const promoted = await put("/api/user/admin", admin.accessToken, { id: user.id, rol: "admin" });
    expect(promoted.statusCode, promoted.body).toBe(200);
    // Still signed in, already with an admin's powers, and told so on every reply until the token is new.
    const told = await me(session.accessToken);
    expect(told.statusCode).toBe(200);
    expect(told.headers["voltio-role-changed"]).toBe("admin");
    expect(told.json()).toMatchObject({ rol: "admin" });
    expect((await allUsers(session.accessToken)).statusCode).toBe(200);
    const renewed = await refreshedAccess(session.refreshToken);
    const quiet = await me(renewed);
    expect(quiet.statusCode).toBe(200);
    expect(quiet.headers["voltio-role-changed"]).toBeUndefined();

    // Demoted: the admin routes refuse at once, and the refusal carries the notice.
    const demoted = await put("/api/user/admin", admin.accessToken, { id: user.id, rol: "user" });
    expect(demoted.statusCode, demoted.body).toBe(200);
    const refused = await allUsers(renewed);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers["voltio-role-changed"]).toBe("user");
    expect((await me(renewed)).headers["voltio-role-changed"]).toBe("user");
    const asShopper = await refreshedAccess(session.refreshToken);
    expect((await allUsers(asShopper)).statusCode).toBe(403);
    expect((await allUsers(asShopper)).headers["voltio-role-changed"]).toBeUndefined();
  });

  it("deleting the account ends every session of it", async () => {
    const user = await account("dee");
    const session = await login(user);
    const refreshed = await refreshedAccess(session.refreshToken);
    const admin = await login(ADMIN);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: "/api/user/admin",
      payload: { id: user.id },
      headers: { authorization: `Bearer ${admin.accessToken}` },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await expectEnded(session, refreshed);
  });

  it("never lets browsers cache token replies", async () => {
    const reply = await post("/api/user/login", SHOPPER);
    expect(reply.headers["cache-control"]).toBe("no-store");
  });
});

describe("rate limits", () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestApp({
      env: {
        RATE_LIMIT_AUTH_PER_IP: "4",
        RATE_LIMIT_AUTH_PER_EMAIL: "2",
        RATE_LIMIT_AUTH_WINDOW_SECONDS: "600",
        // Tiny, so the slowdown is exercised without making the test slow.
        RATE_LIMIT_LOGIN_DELAY_MS: "1",
        RATE_LIMIT_LOGIN_MAX_DELAY_MS: "4",
      },
    });
  });
  afterAll(() => limited.close());

  const from = (ip: string, url: string, payload: object) =>
    limited.app.inject({ method: "POST", url, payload, remoteAddress: ip });

  const expectThrottled = (reply: Awaited<ReturnType<typeof from>>) => {
    expect(reply.statusCode, reply.body).toBe(429);
    expect(Number(reply.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(reply.headers["retry-after"])).toBeLessThanOrEqual(600);
    expect(reply.json().error).toMatch(/too many/i);
  };

  const wrong = (ip: string, email = SHOPPER.email) =>
    from(ip, "/api/user/login", { email, password: "guess-1234" });

  it("only slows down failures of an e-mail from many addresses: the right password still gets in", async () => {
    // Far past the e-mail's limit (2), each attempt waits a little longer, but none is refused.
    for (let i = 1; i <= 8; i++) expect((await wrong(`10.0.0.${i}`)).statusCode).toBe(401);
    expect((await from("10.0.0.50", "/api/user/login", SHOPPER)).statusCode).toBe(200);
    // Another account is not affected.
    expect((await from("10.0.0.51", "/api/user/login", ADMIN)).statusCode).toBe(200);
  });

  it("refuses an (e-mail, address) pair after its failures, even the right password", async () => {
    const ip = "10.0.5.1";
    expect((await wrong(ip)).statusCode).toBe(401);
    expect((await wrong(ip)).statusCode).toBe(401);
    expectThrottled(await wrong(ip));
    // The guesser can't tell a right password apart.
    expectThrottled(await from(ip, "/api/user/login", SHOPPER));
    // The owner elsewhere gets in, and the address may still sign in to other accounts.
    expect((await from("10.0.5.2", "/api/user/login", SHOPPER)).statusCode).toBe(200);
    expect((await from(ip, "/api/user/login", ADMIN)).statusCode).toBe(200);
  });

  it("forgets a pair's failures once the right password is given", async () => {
    const ip = "10.0.6.1";
    expect((await wrong(ip)).statusCode).toBe(401);
    expect((await from(ip, "/api/user/login", SHOPPER)).statusCode).toBe(200);
    expect((await wrong(ip)).statusCode).toBe(401);
    expect((await wrong(ip)).statusCode).toBe(401);
    expectThrottled(await wrong(ip));
  });

  it("limits failed logins per IP, whatever the e-mail", async () => {
    const ip = "10.0.1.1";
    for (let i = 0; i < 4; i++) expect((await wrong(ip, `u${i}@voltio.test`)).statusCode).toBe(401);
    expectThrottled(await wrong(ip, "u9@voltio.test"));
  });

  it("counts only failures against an IP: many people behind one address can sign in", async () => {
    for (let i = 0; i < 6; i++) {
      const credentials = i % 2 ? ADMIN : SHOPPER;
      expect((await from("10.0.7.1", "/api/user/login", credentials)).statusCode).toBe(200);
    }
  });

  it("limits the e-mail check per IP and per e-mail", async () => {
    for (let i = 0; i < 4; i++) {
      expect((await from("10.0.2.1", "/api/user/email", { email: `probe${i}@voltio.test` })).statusCode).toBe(
        200,
      );
    }
    expectThrottled(await from("10.0.2.1", "/api/user/email", { email: "probe9@voltio.test" }));
    expect((await from("10.0.2.2", "/api/user/email", { email: "same@voltio.test" })).statusCode).toBe(200);
    expect((await from("10.0.2.3", "/api/user/email", { email: "SAME@voltio.test" })).statusCode).toBe(200);
    expectThrottled(await from("10.0.2.4", "/api/user/email", { email: "same@voltio.test" }));
  });

  it("limits registrations per IP and per e-mail", async () => {
    const register = (ip: string, email: string) =>
      from(ip, "/api/user", { firstName: "Rita", lastName: "Limit", email, password: "long-enough-1" });
    expect((await register("10.0.3.1", "rita@voltio.test")).statusCode).toBe(201);
    expect((await register("10.0.3.2", "rita@voltio.test")).statusCode).toBe(409);
    expectThrottled(await register("10.0.3.3", "rita@voltio.test"));
    for (let i = 0; i < 4; i++)
      expect((await register("10.0.3.9", `r${i}@voltio.test`)).statusCode).toBe(201);
    expectThrottled(await register("10.0.3.9", "r9@voltio.test"));
  });

  it("limits token refreshes per IP", async () => {
    for (let i = 0; i < 4; i++)
      expect((await from("10.0.4.1", "/api/user/token", { token: `t${i}` })).statusCode).toBe(401);
    expectThrottled(await from("10.0.4.1", "/api/user/token", { token: "t9" }));
    expect((await from("10.0.4.2", "/api/user/token", { token: "t9" })).statusCode).toBe(401);
  });
});

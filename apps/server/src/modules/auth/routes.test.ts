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

  it("hashes for a missing e-mail as for a wrong password, so timing tells no account apart", async () => {
    const time = async (email: string) => {
      const started = process.hrtime.bigint();
      const reply = await post("/api/user/login", { email, password: "Wrong-password1" });
      expect(reply.statusCode).toBe(401);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    await time(SHOPPER.email);
    await time("warm-up@voltio.test");
    const wrongPassword: number[] = [];
    const missingEmail: number[] = [];
    // Interleaved, so a slow moment of the machine hits both series alike.
    for (let run = 0; run < 9; run++) {
      wrongPassword.push(await time(SHOPPER.email));
      missingEmail.push(await time(`missing-${run}@voltio.test`));
    }
    // Skipping the scrypt work for an unknown e-mail would answer ~50× faster; a loaded machine moves
    // the medians by up to ~1.5× (seen in CI), so the bounds catch the leak without flaking.
    const ratio = median(missingEmail) / median(wrongPassword);
    const detail = `missing ${median(missingEmail)} ms, wrong ${median(wrongPassword)} ms`;
    expect(ratio, detail).toBeGreaterThan(0.5);
    expect(ratio, detail).toBeLessThan(2);
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
});

describe("POST /api/user/token (refresh)", () => {
  it("gives a new access token and rotates the refresh token", async () => {
    const first = await login();
    const reply = await refresh(first.refreshToken);
    expect(reply.statusCode, reply.body).toBe(200);
    const next = reply.json<{ token: string; refreshToken: string }>();
    expect(next.refreshToken).not.toBe(first.refreshToken);
    expect((await me(next.token)).statusCode).toBe(200);
    // The replaced token can't be used again…
    expect((await refresh(first.refreshToken)).statusCode).toBe(401);
  });

  it("revokes the whole login when a replaced token is presented again", async () => {
    const first = await login();
    const second = (await refresh(first.refreshToken)).json<{ refreshToken: string }>();
    const reuse = await refresh(first.refreshToken);
    expect(reuse.statusCode).toBe(401);
    // …and the thief's reuse also ends the legitimate holder's newer token.
    expect((await refresh(second.refreshToken)).statusCode).toBe(401);
    // Other logins of the same user go on.
    const other = await login();
    expect((await refresh(other.refreshToken)).statusCode).toBe(200);
  });

  it("lets only one of two simultaneous refreshes with the same token win", async () => {
    const { refreshToken } = await login();
    const replies = await Promise.all([refresh(refreshToken), refresh(refreshToken)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it("refuses unknown and expired tokens", async () => {
    expect((await refresh("x".repeat(43))).statusCode).toBe(401);
    const { refreshToken } = await login();
    await t.database.db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await refresh(refreshToken)).statusCode).toBe(401);
  });

  it("ends a login at its maximum age even when refreshed all along", async () => {
    const { refreshToken } = await login();
    const hash = createHash("sha256").update(refreshToken).digest("hex");
    const [mine] = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hash));
    // The login started 13 hours ago (the maximum is 12): the token is still unexpired, but the login isn't.
    await t.database.db
      .update(refreshTokens)
      .set({ createdAt: new Date(Date.now() - 13 * 3600_000) })
      .where(eq(refreshTokens.familyId, mine!.familyId));
    expect((await refresh(refreshToken)).statusCode).toBe(401);
  });
});

describe("DELETE /api/user/token (logout)", () => {
  it("revokes the login: its refresh token no longer works", async () => {
    const tokens = await login(ADMIN);
    const out = await t.app.inject({
      method: "DELETE",
      url: "/api/user/token",
      payload: { token: tokens.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ msg: "Logged out" });
    expect((await refresh(tokens.refreshToken)).statusCode).toBe(401);
    // Unknown tokens change nothing and reveal nothing.
    const again = await t.app.inject({
      method: "DELETE",
      url: "/api/user/token",
      payload: { token: "unknown" },
    });
    expect(again.statusCode).toBe(200);
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

  it("limits failed logins per e-mail, from any IP", async () => {
    const attempt = (ip: string) =>
      from(ip, "/api/user/login", { email: SHOPPER.email, password: "guess-1234" });
    expect((await attempt("10.0.0.1")).statusCode).toBe(401);
    expect((await attempt("10.0.0.2")).statusCode).toBe(401);
    expectThrottled(await attempt("10.0.0.3"));
    // Even the right password waits now: the guesser can't tell.
    expectThrottled(await from("10.0.0.4", "/api/user/login", SHOPPER));
    // Another account is not affected.
    expect((await from("10.0.0.5", "/api/user/login", ADMIN)).statusCode).toBe(200);
  });

  it("limits logins per IP, whatever the e-mail", async () => {
    const ip = "10.0.1.1";
    for (let i = 0; i < 4; i++) {
      expect(
        (await from(ip, "/api/user/login", { email: `u${i}@voltio.test`, password: "guess-1234" }))
          .statusCode,
      ).toBe(401);
    }
    expectThrottled(await from(ip, "/api/user/login", { email: "u9@voltio.test", password: "guess-1234" }));
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

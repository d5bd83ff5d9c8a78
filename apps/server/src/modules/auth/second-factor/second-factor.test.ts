import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, like } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { authChallenges, mailOutbox, recoveryCodes, users } from "../../../db/schema";
import { createTestApp, type TestContext } from "../../../../test/app";
import { loadConfig } from "../../../config";
import { hashPassword } from "../password";
import { openSecret } from "./secret-box";

const PASSWORD = "Quiet-Harbour-Lantern-42";

let t: TestContext;
let required: TestContext;
/** Three wrong codes per account in a window, as RATE_LIMIT_AUTH_PER_EMAIL counts wrong passwords. */
let limited: TestContext;
beforeAll(async () => {
  [t, required, limited] = await Promise.all([
    createTestApp(),
    createTestApp({ env: { ADMIN_REQUIRE_2FA: "true" } }),
    createTestApp({ env: { RATE_LIMIT_AUTH_PER_EMAIL: "3" } }),
  ]);
});
afterAll(() => Promise.all([t.close(), required.close(), limited.close()]));

/** A code of the authenticator app, `steps` 30-second steps from now. */
const codeOf = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

let users_ = 0;
/** A fresh account of its own, so each test's codes and steps are its own. */
async function newUser(ctx: TestContext, rol: "user" | "admin") {
  users_ += 1;
  const email = `two-step-${rol}-${users_}@voltio.test`;
  const [row] = await ctx.database.db
    .insert(users)
    .values({ firstName: "Two", lastName: "Step", email, passwordHash: await hashPassword(PASSWORD), rol })
    .returning({ id: users.id });
  return { id: row!.id, email };
}

const inject = (
  ctx: TestContext,
  method: "GET" | "POST" | "DELETE",
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) => ctx.app.inject({ method, url, payload, headers });

async function passwordLogin(ctx: TestContext, email: string) {
  const reply = await inject(ctx, "POST", "/api/user/login", { email, password: PASSWORD });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<
    | { msg: string; accessToken: string; refreshToken: string }
    | { msg: string; secondFactor: { token: string; methods: string[] } }
  >();
}

async function bearerByPassword(ctx: TestContext, email: string) {
  const reply = await passwordLogin(ctx, email);
  if (!("accessToken" in reply)) throw new Error("expected tokens");
  return { authorization: `Bearer ${reply.accessToken}` };
}

/** Turns the authenticator app on for the account: its secret (as the page shows it) and recovery codes. */
async function enrol(ctx: TestContext, auth: Record<string, string>) {
  const start = await inject(ctx, "POST", "/api/user/second-factor/totp", undefined, auth);
  expect(start.statusCode, start.body).toBe(200);
  const { secret, otpauthUrl, qrCode } = start.json<{ secret: string; otpauthUrl: string; qrCode: string }>();
  expect(otpauthUrl).toContain(`secret=${secret}`);
  expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
  const confirmCode = codeOf(secret);
  const confirm = await inject(
    ctx,
    "POST",
    "/api/user/second-factor/totp/confirm",
    { code: confirmCode },
    auth,
  );
  expect(confirm.statusCode, confirm.body).toBe(200);
  return {
    secret,
    confirmCode,
    recoveryCodes: confirm.json<{ recoveryCodes: string[] }>().recoveryCodes,
  };
}

const finish = (ctx: TestContext, token: string, code: string) =>
  inject(ctx, "POST", "/api/user/login/second-factor", { token, code });

async function pendingToken(ctx: TestContext, email: string) {
  const reply = await passwordLogin(ctx, email);
  expect(reply).toMatchObject({ msg: "Second factor required" });
  if (!("secondFactor" in reply)) throw new Error("expected the second step");
  return reply.secondFactor;
}

describe("the authenticator app", () => {
  it("is asked for at login once enabled, and its secret is sealed at rest", async () => {
    const user = await newUser(t, "user");
    const auth = await bearerByPassword(t, user.email);
    const { secret } = await enrol(t, auth);

    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.totpSecret).not.toContain(secret);
    expect(openSecret(t.config.jwtSecret, user.id, row!.totpSecret!)).toBe(secret);
    // Sealed for this account: the same ciphertext doesn't open as another's.
    expect(openSecret(t.config.jwtSecret, user.id + 1, row!.totpSecret!)).toBeUndefined();

    const step = await pendingToken(t, user.email);
    expect(step.methods).toEqual(["totp", "recovery"]);
    expect(step.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [challenge] = await t.database.db
      .select()
      .from(authChallenges)
      .where(eq(authChallenges.userId, user.id));
    expect(challenge!.tokenHash).not.toBe(step.token);

    const reply = await finish(t, step.token, codeOf(secret, 1));
    expect(reply.statusCode, reply.body).toBe(200);
    const tokens = reply.json<{ msg: string; accessToken: string; refreshToken: string }>();
    expect(tokens.msg).toBe("Logged in");
    const status = await inject(t, "GET", "/api/user/second-factor", undefined, {
      authorization: `Bearer ${tokens.accessToken}`,
    });
    expect(status.json()).toEqual({
      totpEnabled: true,
      recoveryCodesLeft: 10,
      passkeys: 0,
      required: false,
      sessionVerified: true,
    });
    // The step was used up.
    expect((await finish(t, step.token, codeOf(secret, 1))).statusCode).toBe(401);
  });

  it("sends the owner a notice when it is turned on and off", async () => {
    const user = await newUser(t, "user");
    const auth = await bearerByPassword(t, user.email);
    const { recoveryCodes: codes } = await enrol(t, auth);
    const off = await inject(t, "DELETE", "/api/user/second-factor/totp", { code: codes[0] }, auth);
    expect(off.statusCode, off.body).toBe(200);
    const notices = await t.database.db
      .select({ key: mailOutbox.dedupeKey })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, user.email), like(mailOutbox.dedupeKey, "security-notice:%")));
    expect(notices.map((notice) => String(notice.key).split(":")[1]).sort()).toEqual([
      "second-factor-added",
      "second-factor-removed",
    ]);
    // Off, the password alone signs in again.
    expect(await passwordLogin(t, user.email)).toMatchObject({ msg: "Logged in" });
  });

  it("refuses a wrong code and a replayed one", async () => {
    const user = await newUser(t, "user");
    const { secret, confirmCode } = await enrol(t, await bearerByPassword(t, user.email));
    const step = await pendingToken(t, user.email);
    const wrong = await finish(t, step.token, codeOf(secret, 5));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe("The code is incorrect");
    // The confirmation's code was used: it doesn't sign in.
    const replayed = await finish(t, step.token, confirmCode);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toBe("The code is incorrect");
    const next = codeOf(secret, 1);
    expect((await finish(t, step.token, next)).statusCode).toBe(200);
    // …and the one that just signed in doesn't sign in again.
    const again = await pendingToken(t, user.email);
    expect((await finish(t, again.token, next)).json().error).toBe("The code is incorrect");
  });

  it("closes the step after five wrong codes: the password must be entered again", async () => {
    const user = await newUser(t, "user");
    const { secret } = await enrol(t, await bearerByPassword(t, user.email));
    const step = await pendingToken(t, user.email);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const reply = await finish(t, step.token, "000000");
      expect(reply.json().error).toBe("The code is incorrect");
    }
    const closed = await finish(t, step.token, codeOf(secret, 1));
    expect(closed.statusCode).toBe(401);
    expect(closed.json()).toMatchObject({
      error: "The sign-in step expired: enter your password again",
      secondFactorGone: true,
    });
    const fresh = await pendingToken(t, user.email);
    expect((await finish(t, fresh.token, codeOf(secret, 1))).statusCode).toBe(200);
  });

  it("counts wrong codes per account like wrong passwords: past the limit even a right code waits", async () => {
    const user = await newUser(limited, "user");
    const { secret } = await enrol(limited, await bearerByPassword(limited, user.email));
    const first = await pendingToken(limited, user.email);
    for (let attempt = 0; attempt < 3; attempt += 1)
      expect((await finish(limited, first.token, "000000")).statusCode).toBe(401);
    // A new step (the password again) doesn't start the count over.
    const second = await pendingToken(limited, user.email);
    const refused = await finish(limited, second.token, codeOf(secret, 1));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("takes each recovery code once, and a new set replaces the old", async () => {
    const user = await newUser(t, "user");
    const { secret, recoveryCodes: codes } = await enrol(t, await bearerByPassword(t, user.email));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored.some((row) => codes.some((code) => row.codeHash.includes(code)))).toBe(false);

    const first = await pendingToken(t, user.email);
    // As typed from paper: upper case, no dash.
    const reply = await finish(t, first.token, codes[0]!.toUpperCase().replace("-", ""));
    expect(reply.statusCode, reply.body).toBe(200);
    const auth = { authorization: `Bearer ${reply.json<{ accessToken: string }>().accessToken}` };
    const second = await pendingToken(t, user.email);
    expect((await finish(t, second.token, codes[0]!)).json().error).toBe("The code is incorrect");

    const status = await inject(t, "GET", "/api/user/second-factor", undefined, auth);
    expect(status.json()).toMatchObject({ recoveryCodesLeft: 9 });
    const renewed = await inject(
      t,
      "POST",
      "/api/user/second-factor/recovery-codes",
      { code: codeOf(secret, 1) },
      auth,
    );
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = renewed.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect((await finish(t, second.token, codes[1]!)).json().error).toBe("The code is incorrect");
    expect((await finish(t, second.token, fresh[0]!)).statusCode).toBe(200);
  });

  it("needs a right code to be confirmed, turned off or to renew the recovery codes", async () => {
    const user = await newUser(t, "user");
    const auth = await bearerByPassword(t, user.email);
    await inject(t, "POST", "/api/user/second-factor/totp", undefined, auth);
    const confirm = await inject(t, "POST", "/api/user/second-factor/totp/confirm", { code: "123456" }, auth);
    expect(confirm.statusCode).toBe(400);
    expect(confirm.json().details).toEqual([{ field: "code", reason: "is incorrect" }]);
    // Not confirmed: the password alone still signs in.
    expect(await passwordLogin(t, user.email)).toMatchObject({ msg: "Logged in" });
    const off = await inject(t, "DELETE", "/api/user/second-factor/totp", { code: "123456" }, auth);
    expect(off.statusCode).toBe(409);
  });
});

describe("admins", () => {
  it("sign in with the password alone where the store doesn't require a second factor (demo default)", async () => {
    expect(t.config.demo).toBe(true);
    expect(t.config.adminRequireSecondFactor).toBe(false);
    const admin = await newUser(t, "admin");
    const auth = await bearerByPassword(t, admin.email);
    expect((await inject(t, "GET", "/api/user/all", undefined, auth)).statusCode).toBe(200);
    const status = await inject(t, "GET", "/api/user/second-factor", undefined, auth);
    expect(status.json()).toMatchObject({ required: false, sessionVerified: false });
  });

  it("who enrolled are always asked for the code, required or not", async () => {
    const admin = await newUser(t, "admin");
    const { secret } = await enrol(t, await bearerByPassword(t, admin.email));
    const step = await pendingToken(t, admin.email);
    expect((await finish(t, step.token, codeOf(secret, 1))).statusCode).toBe(200);
  });

  it("are refused on admin routes without a second factor when it is required, and go on once enrolled", async () => {
    const admin = await newUser(required, "admin");
    const auth = await bearerByPassword(required, admin.email);
    const refused = await inject(required, "GET", "/api/user/all", undefined, auth);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ reason: "second-factor-required" });
    expect(refused.json().error).toContain("second factor");
    // Their own account and the set-up stay open.
    expect((await inject(required, "GET", "/api/user", undefined, auth)).statusCode).toBe(200);
    const status = await inject(required, "GET", "/api/user/second-factor", undefined, auth);
    expect(status.json()).toMatchObject({ required: true, sessionVerified: false, totpEnabled: false });

    const { secret } = await enrol(required, auth);
    // Confirming counts for the session that did it.
    expect((await inject(required, "GET", "/api/user/all", undefined, auth)).statusCode).toBe(200);

    const step = await pendingToken(required, admin.email);
    const signedIn = await finish(required, step.token, codeOf(secret, 1));
    const fresh = { authorization: `Bearer ${signedIn.json<{ accessToken: string }>().accessToken}` };
    expect((await inject(required, "GET", "/api/user/all", undefined, fresh)).statusCode).toBe(200);
  });

  it("must use a second factor by default outside demo mode, or as ADMIN_REQUIRE_2FA says", () => {
    const env = { DATA_DIR: t.config.dataDir, JWT_SECRET: t.config.jwtSecret };
    expect(loadConfig({ ...env, DEMO: "false" }).adminRequireSecondFactor).toBe(true);
    expect(loadConfig({ ...env, DEMO: "true" }).adminRequireSecondFactor).toBe(false);
    expect(loadConfig({ ...env, DEMO: "true", ADMIN_REQUIRE_2FA: "true" }).adminRequireSecondFactor).toBe(
      true,
    );
    expect(loadConfig({ ...env, DEMO: "false", ADMIN_REQUIRE_2FA: "false" }).adminRequireSecondFactor).toBe(
      false,
    );
  });

  it("shoppers are never asked when it is required for admins", async () => {
    const shopper = await newUser(required, "user");
    const auth = await bearerByPassword(required, shopper.email);
    const status = await inject(required, "GET", "/api/user/second-factor", undefined, auth);
    expect(status.json()).toMatchObject({ required: false });
  });
});

import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { auditLog, mailOutbox, passwordResetTokens, users } from "../../db/schema";
import { FORGOT_REPLY } from "./password-reset";

/** "Forgot password?" by e-mail, a single-use link valid 30 minutes. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let serial = 0;
const post = (url: string, payload: object, remoteAddress?: string) =>
  t.app.inject({ method: "POST", url, payload, remoteAddress });
const forgot = (email: string) => post("/api/user/password/forgot", { email });
const reset = (token: string, password: string) => post("/api/user/password/reset", { token, password });
const login = (email: string, password: string) => post("/api/user/login", { email, password });

/** An account of the test's own, with a password. */
async function account() {
  const email = `reset-${++serial}@voltio.test`;
  const password = "Old-password-1";
  const reply = await post("/api/user", { firstName: "Rita", lastName: "Reset", email, password });
  expect(reply.statusCode, reply.body).toBe(201);
  return { id: reply.json<{ id: number }>().id, email, password };
}

const mailsTo = (email: string) =>
  t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.id);

/** The reply goes before the link is made (password-reset.ts): the e-mail is queued just after. */
async function mailArrives(email: string, count: number) {
  await vi.waitFor(async () => expect(await mailsTo(email)).toHaveLength(count), { timeout: 10_000 });
  return mailsTo(email);
}

/** Asks for a link and reads it from the queued e-mail, as the shopper would. */
async function linkFor(email: string, typed = email): Promise<{ url: URL; token: string }> {
  const before = (await mailsTo(email)).length;
  const reply = await forgot(typed);
  expect(reply.statusCode, reply.body).toBe(202);
  const mail = (await mailArrives(email, before + 1)).at(-1);
  const link = /https?:\/\/\S+\/password\/reset\?token=\S+/.exec(mail?.textBody ?? "")?.[0];
  expect(link, mail?.textBody).toBeDefined();
  const url = new URL(link!);
  return { url, token: url.searchParams.get("token")! };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("POST /api/user/password/forgot", () => {
  it("answers the same for an account, a missing one and a deleted one", async () => {
    const user = await account();
    const unknown = await forgot("nobody-here@voltio.test");
    const deleted = await account();
    await t.app.inject({
      method: "DELETE",
      url: "/api/user/admin",
      payload: { id: deleted.id },
      headers: await t.bearer(1),
    });
    const [erased] = await t.database.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, deleted.id));
    const gone = await forgot(deleted.email);
    const known = await forgot(user.email);
    for (const reply of [known, unknown, gone]) {
      expect(reply.statusCode).toBe(202);
      expect(reply.json()).toEqual({ msg: FORGOT_REPLY });
      expect(reply.headers["cache-control"]).toBe("no-store");
    }
    // Asked last, queued last: once its e-mail is there, the others would have been too.
    await mailArrives(user.email, 1);
    expect(await mailsTo("nobody-here@voltio.test")).toHaveLength(0);
    expect(await mailsTo(deleted.email)).toHaveLength(0);
    expect(await mailsTo(erased!.email)).toHaveLength(0);
  });

  it("e-mails a link to the store's page with a token stored only as its SHA-256, valid 30 minutes", async () => {
    const user = await account();
    const before = Date.now();
    const { url, token } = await linkFor(user.email, ` ${user.email.toUpperCase()} `);
    expect(`${url.origin}${url.pathname}`).toBe(`${t.config.publicUrl}/password/reset`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [mail] = await mailsTo(user.email);
    expect(mail!.subject).toMatch(/reset your password/);
    expect(mail!.dedupeKey).toMatch(/^password-reset:\d+$/);
    const rows = await t.database.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256(token));
    expect(rows[0]!.usedAt).toBeNull();
    const lifetime = rows[0]!.expiresAt.getTime() - before;
    expect(lifetime).toBeGreaterThanOrEqual(30 * 60_000 - 1000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000 + 60_000);
  });

  it("tells a Google account to sign in with Google, with no link", async () => {
    const email = `google-${++serial}@voltio.test`;
    const [google] = await t.database.db
      .insert(users)
      .values({ firstName: "Gus", lastName: "Google", email, passwordHash: null, googleUser: true })
      .returning({ id: users.id });
    expect((await forgot(email)).json()).toEqual({ msg: FORGOT_REPLY });
    const [mail] = await mailArrives(email, 1);
    expect(mail!.textBody).toContain("signs in with Google");
    expect(mail!.textBody).toContain(`${t.config.publicUrl}/login`);
    expect(mail!.textBody).not.toContain("token=");
    const tokens = await t.database.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, google!.id));
    expect(tokens).toHaveLength(0);
  });

  it("needs a valid e-mail", async () => {
    const reply = await forgot("not-an-email");
    expect(reply.statusCode).toBe(400);
    expect(reply.json().details[0]).toEqual({ field: "email", reason: "Enter a valid e-mail" });
  });
});

describe("POST /api/user/password/reset", () => {
  it("sets the new password once: the old one and a second use are refused", async () => {
    const user = await account();
    const { token } = await linkFor(user.email);
    const done = await reset(token, "New-password-1");
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ msg: "Password changed", email: user.email });
    expect((await login(user.email, "New-password-1")).statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(401);

    const again = await reset(token, "Another-password-1");
    expect(again.statusCode).toBe(400);
    expect(again.json().details).toEqual([
      { field: "token", reason: "This link was already used: ask for a new one" },
    ]);
    expect((await login(user.email, "New-password-1")).statusCode).toBe(200);
  });

  it("ends every session of the account: an old refresh token and access token stop working", async () => {
    const user = await account();
    const session = (await login(user.email, user.password)).json<{
      accessToken: string;
      refreshToken: string;
    }>();
    const { token } = await linkFor(user.email);
    expect((await reset(token, "New-password-2")).statusCode).toBe(200);
    expect((await post("/api/user/token", { token: session.refreshToken })).statusCode).toBe(401);
    const me = await t.app.inject({
      url: "/api/user",
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    expect(me.statusCode).toBe(401);
  });

  it("refuses an expired link", async () => {
    const user = await account();
    const { token } = await linkFor(user.email);
    await t.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.tokenHash, sha256(token)));
    const reply = await reset(token, "New-password-3");
    expect(reply.statusCode).toBe(400);
    expect(reply.json().details).toEqual([
      { field: "token", reason: "This link has expired: ask for a new one" },
    ]);
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it("closes the account's other links when one is used", async () => {
    const user = await account();
    const first = await linkFor(user.email);
    const second = await linkFor(user.email);
    expect((await reset(second.token, "New-password-4")).statusCode).toBe(200);
    const late = await reset(first.token, "New-password-5");
    expect(late.statusCode).toBe(400);
    expect(late.json().details[0].reason).toBe("This link was already used: ask for a new one");
  });

  it("lets only one of two simultaneous uses of a link through", async () => {
    const user = await account();
    const { token } = await linkFor(user.email);
    const replies = await Promise.all([reset(token, "Racing-password-1"), reset(token, "Racing-password-2")]);
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 400]);
  });

  it("records the reset on the audit log, as done by the account itself", async () => {
    const user = await account();
    const { token } = await linkFor(user.email);
    expect((await reset(token, "New-password-6")).statusCode).toBe(200);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.password-reset"), eq(auditLog.entityId, String(user.id))))
      .orderBy(desc(auditLog.id));
    expect(entry).toMatchObject({ actorId: user.id, entity: "user", details: { before: null } });
  });

  it.each([
    [
      "an unknown token",
      "B".repeat(43),
      "New-password-7",
      "token",
      "This link is not valid: ask for a new one",
    ],
    ["a malformed token", "short", "New-password-7", "token", "This link is not valid: ask for a new one"],
    ["a short password", "C".repeat(43), "short", "password", "At least 8 characters"],
    ["an empty password", "C".repeat(43), "", "password", "Password is required"],
  ])("refuses %s with the field and the reason", async (_what, token, password, field, reason) => {
    const reply = await reset(token, password);
    expect(reply.statusCode).toBe(400);
    expect(reply.json().details).toContainEqual({ field, reason });
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

  const ask = (email: string, remoteAddress: string) =>
    limited.app.inject({
      method: "POST",
      url: "/api/user/password/forgot",
      payload: { email },
      remoteAddress,
    });

  it("limits the requests for one e-mail, from any address", async () => {
    const statuses = [];
    for (const address of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
      statuses.push((await ask("shopper@voltio.test", address)).statusCode);
    expect(statuses).toEqual([202, 202, 429]);
    const refused = await ask("shopper@voltio.test", "198.51.100.4");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(500);
    // Two e-mails went out, not four: a refused request never gets as far as the account.
    const mails = () =>
      limited.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, "shopper@voltio.test"));
    await vi.waitFor(async () => expect(await mails()).toHaveLength(2), { timeout: 10_000 });
  });

  it("limits the requests of one address, whatever the e-mail", async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await ask(`many-${i}@voltio.test`, "198.51.100.9")).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 429]);
  });

  it("limits reset attempts of one address", async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const reply = await limited.app.inject({
        method: "POST",
        url: "/api/user/password/reset",
        payload: { token: "D".repeat(43), password: "Guessing-password-1" },
        remoteAddress: "198.51.100.10",
      });
      statuses.push(reply.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
  });
});

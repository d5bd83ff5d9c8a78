import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, emailChanges, mailOutbox, users } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";
import { startFakeGoogle, type FakeGoogle } from "../../../test/fake-google";

/**
 * Changing the e-mail: the owner's proof, the link to the new address, the notice with its "this wasn't me"
 * link to the old one. Links are read from the queued e-mails, as their owner would. Google is played by a
 * local server publishing a key set (test/fake-google.ts).
 */
let t: TestContext;
let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle();
  t = await createTestApp({ env: google.env });
});
afterAll(async () => {
  await t.close();
  await google.close();
});

type Headers = Record<string, string>;
const PASSWORD = "Old-password-1";
let serial = 0;
const unique = (name: string) => `${name}-${++serial}@voltio.test`;

const inject = (method: "GET" | "POST" | "PUT", url: string, payload?: object, headers: Headers = {}) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const login = (email: string, password = PASSWORD) => inject("POST", "/api/user/login", { email, password });

/** An account of the test's own, signed in. */
async function account() {
  const email = unique("owner");
  const created = await inject("POST", "/api/user", {
    firstName: "Olga",
    lastName: "Owner",
    email,
    password: PASSWORD,
  });
  expect(created.statusCode, created.body).toBe(201);
  const reply = await login(email);
  expect(reply.statusCode, reply.body).toBe(200);
  const headers = { authorization: `Bearer ${reply.json<{ accessToken: string }>().accessToken}` };
  return { id: created.json<{ id: number }>().id, email, headers };
}

const changeEmail = (headers: Headers, body: object) => inject("PUT", "/api/user", body, headers);
const confirm = (token: string) => inject("POST", "/api/user/email/confirm", { token });
const revert = (token: string) => inject("POST", "/api/user/email/revert", { token });
const emailOf = async (id: number) =>
  (await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, id)))[0]!.email;

const mailsTo = (email: string) =>
  t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.id);

/** The token of the newest link to `path` in the e-mails queued to `email`. */
async function linkIn(email: string, path: "confirm" | "revert"): Promise<{ url: URL; token: string }> {
  const mail = (await mailsTo(email)).at(-1);
  const link = new RegExp(`https?://\\S+/user/email/${path}\\?token=\\S+`).exec(mail?.textBody ?? "")?.[0];
  expect(link, mail?.textBody).toBeDefined();
  const url = new URL(link!);
  return { url, token: url.searchParams.get("token")! };
}

const refusal = (reply: { json: () => unknown }) =>
  (reply.json() as { details?: { field: string; reason: string }[] }).details?.[0];
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Asks for the change with the password, and reads the link sent to the new address. */
async function requested(owner: { headers: Headers }, newEmail: string) {
  const reply = await changeEmail(owner.headers, { email: newEmail, currentPassword: PASSWORD });
  expect(reply.statusCode, reply.body).toBe(200);
  return linkIn(newEmail, "confirm");
}

describe("PUT /api/user {email}", () => {
  it("needs the current password: without it a clear 400 naming currentPassword, a wrong one is refused", async () => {
    const owner = await account();
    const target = unique("target");
    // A client written before the change sends the e-mail alone.
    const bare = await changeEmail(owner.headers, { email: target });
    expect(bare.statusCode).toBe(400);
    expect(refusal(bare)).toEqual({
      field: "currentPassword",
      reason: "Type your current password to change the e-mail",
    });
    const wrong = await changeEmail(owner.headers, { email: target, currentPassword: "Not-the-password-1" });
    expect(wrong.statusCode).toBe(400);
    expect(refusal(wrong)).toEqual({ field: "currentPassword", reason: "The password is incorrect" });
    expect(await emailOf(owner.id)).toBe(owner.email);
    expect(await mailsTo(target)).toHaveLength(0);
  });

  it("keeps the e-mail until the link is opened, and stores only the link's hash, valid 30 minutes", async () => {
    const owner = await account();
    const target = unique("new");
    const before = Date.now();
    const reply = await changeEmail(owner.headers, { email: target, currentPassword: PASSWORD });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toMatchObject({
      id: owner.id,
      email: owner.email,
      pendingEmail: target,
      msg: `We sent a link to ${target}: the e-mail changes once it is opened`,
      directions: [],
    });
    expect(await emailOf(owner.id)).toBe(owner.email);

    const { url, token } = await linkIn(target, "confirm");
    expect(url.origin + url.pathname).toBe(`${t.config.publicUrl}/user/email/confirm`);
    const [mail] = await mailsTo(target);
    expect(mail!.subject).toBe("Voltio: confirm your new e-mail / confirma tu nuevo correo");
    expect(mail!.textBody).toContain("Abre este enlace");
    const [row] = await t.database.db.select().from(emailChanges).where(eq(emailChanges.userId, owner.id));
    expect(row).toMatchObject({ oldEmail: owner.email, newEmail: target, confirmTokenHash: sha256(token) });
    expect(JSON.stringify(row)).not.toContain(token);
    const minutes = (row!.expiresAt.getTime() - before) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30.1);
  });

  it("refuses an address another account has, whatever its case, and the account's own", async () => {
    const owner = await account();
    const other = await account();
    const taken = await changeEmail(owner.headers, {
      email: other.email.toUpperCase(),
      currentPassword: PASSWORD,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: "email exists" });
    const same = await changeEmail(owner.headers, { email: owner.email, currentPassword: PASSWORD });
    expect(same.statusCode).toBe(400);
    expect(refusal(same)).toEqual({ field: "email", reason: "That is already your e-mail" });
  });
});

describe("POST /api/user/email/confirm", () => {
  it("applies the change, audits it and tells the old address with a link that puts it back", async () => {
    const owner = await account();
    const target = unique("confirmed");
    const { token } = await requested(owner, target);

    const reply = await confirm(token);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toEqual({ msg: "E-mail changed", email: target });
    expect(reply.headers["cache-control"]).toBe("no-store");
    expect(await emailOf(owner.id)).toBe(target);
    expect((await login(target)).statusCode).toBe(200);
    expect((await login(owner.email)).statusCode).toBe(401);
    // The session that asked goes on.
    expect((await inject("GET", "/api/user", undefined, owner.headers)).json()).toMatchObject({
      email: target,
    });

    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.email-change"), eq(auditLog.entityId, String(owner.id))));
    expect(entry).toMatchObject({
      actorId: owner.id,
      details: { before: { email: owner.email }, after: { email: target } },
    });

    const [notice] = await mailsTo(owner.email);
    expect(notice!.subject).toBe("Voltio: your e-mail was changed / tu correo cambió");
    expect(notice!.textBody).toContain(`now signs in with ${target} instead of this address`);
    expect(notice!.textBody).toContain(`ahora entra con ${target}`);
    const revertLink = await linkIn(owner.email, "revert");
    expect(revertLink.url.origin + revertLink.url.pathname).toBe(`${t.config.publicUrl}/user/email/revert`);
    const [row] = await t.database.db.select().from(emailChanges).where(eq(emailChanges.userId, owner.id));
    expect(row!.revertTokenHash).toBe(sha256(revertLink.token));
  });

  it("works once", async () => {
    const owner = await account();
    const { token } = await requested(owner, unique("once"));
    expect((await confirm(token)).statusCode).toBe(200);
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(refusal(again)).toEqual({ field: "token", reason: "This link was already used" });
  });

  it("refuses an expired link, an unknown one and one a newer request replaced", async () => {
    const owner = await account();
    const first = await requested(owner, unique("first"));
    const second = await requested(owner, unique("second"));
    // The newer request replaced the older one.
    const replaced = await confirm(first.token);
    expect(replaced.statusCode).toBe(400);
    expect(refusal(replaced)).toEqual({ field: "token", reason: "This link is not valid" });

    await t.database.db
      .update(emailChanges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailChanges.confirmTokenHash, sha256(second.token)));
    const expired = await confirm(second.token);
    expect(expired.statusCode).toBe(400);
    expect(refusal(expired)).toEqual({ field: "token", reason: "This link has expired" });
    expect(await emailOf(owner.id)).toBe(owner.email);

    const unknown = await confirm("A".repeat(43));
    expect(unknown.statusCode).toBe(400);
    expect(refusal(unknown)?.field).toBe("token");
    const malformed = await confirm("not a token");
    expect(malformed.statusCode).toBe(400);
  });

  it("answers 409 when the address was taken after the link was sent, and the link stays unused", async () => {
    const owner = await account();
    const target = unique("raced");
    const { token } = await requested(owner, target);
    const registered = await inject("POST", "/api/user", {
      firstName: "Quick",
      lastName: "Taker",
      email: target,
      password: PASSWORD,
    });
    expect(registered.statusCode).toBe(201);
    const reply = await confirm(token);
    expect(reply.statusCode).toBe(409);
    expect(reply.json()).toMatchObject({ error: "email exists" });
    expect(await emailOf(owner.id)).toBe(owner.email);
    const [row] = await t.database.db.select().from(emailChanges).where(eq(emailChanges.userId, owner.id));
    expect(row!.confirmedAt).toBeNull();
    expect(await mailsTo(owner.email)).toHaveLength(0);
  });
});

describe("POST /api/user/email/revert", () => {
  it("puts the old address back, ends every session and cancels pending changes, once", async () => {
    const owner = await account();
    const second = await login(owner.email);
    const secondHeaders = {
      authorization: `Bearer ${second.json<{ accessToken: string }>().accessToken}`,
    };
    const target = unique("intruder");
    expect((await confirm((await requested(owner, target)).token)).statusCode).toBe(200);
    const { token } = await linkIn(owner.email, "revert");
    // The intruder moves the account once more (its "this wasn't me" goes to their own address), asks for
    // a password reset at their address, and for yet another address, still pending.
    const further = unique("further");
    expect((await confirm((await requested(owner, further)).token)).statusCode).toBe(200);
    const theirRevert = await linkIn(target, "revert");
    expect((await inject("POST", "/api/user/password/forgot", { email: further })).statusCode).toBe(202);
    await vi.waitFor(async () => expect(await mailsTo(further)).toHaveLength(2), { timeout: 10_000 });
    const resetMail = (await mailsTo(further)).at(-1)!.textBody;
    const resetToken = /\/password\/reset\?token=([\w-]{43})/.exec(resetMail)?.[1];
    const pending = await requested(owner, unique("pending"));

    const reply = await revert(token);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toEqual({
      msg: "E-mail put back: every session ended. Reset your password now",
      email: owner.email,
    });
    expect(await emailOf(owner.id)).toBe(owner.email);
    for (const headers of [owner.headers, secondHeaders]) {
      expect((await inject("GET", "/api/user", undefined, headers)).statusCode).toBe(401);
    }
    expect(refusal(await confirm(pending.token))).toEqual({
      field: "token",
      reason: "This link is not valid",
    });
    // The intruder's own links are spent: their revert would move the account back to them.
    expect(refusal(await revert(theirRevert.token))).toEqual({
      field: "token",
      reason: "This link was already used",
    });
    const reset = await inject("POST", "/api/user/password/reset", {
      token: resetToken,
      password: "violet-harbour-tractor-91",
    });
    expect(refusal(reset)).toEqual({
      field: "token",
      reason: "This link was already used: ask for a new one",
    });
    expect((await login(owner.email)).statusCode).toBe(200);
    expect((await login(target)).statusCode).toBe(401);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(owner.id)))
      .orderBy(desc(auditLog.id));
    expect(entry).toMatchObject({
      action: "user.email-revert",
      details: { before: { email: further }, after: { email: owner.email } },
    });

    const again = await revert(token);
    expect(again.statusCode).toBe(400);
    expect(refusal(again)).toEqual({ field: "token", reason: "This link was already used" });
  });

  it("says clearly when another account took the old address meanwhile", async () => {
    const owner = await account();
    expect((await confirm((await requested(owner, unique("moved"))).token)).statusCode).toBe(200);
    const { token } = await linkIn(owner.email, "revert");
    const taker = await inject("POST", "/api/user", {
      firstName: "Sly",
      lastName: "Taker",
      email: owner.email,
      password: PASSWORD,
    });
    expect(taker.statusCode).toBe(201);
    const reply = await revert(token);
    expect(reply.statusCode).toBe(409);
    expect(reply.json()).toMatchObject({
      error: "Another account uses that e-mail now, so it can't be put back: contact the store",
    });
    // Nothing changed: the owner's session and the link are as they were.
    expect((await inject("GET", "/api/user", undefined, owner.headers)).statusCode).toBe(200);
  });

  it("works for 7 days after the change", async () => {
    const owner = await account();
    expect((await confirm((await requested(owner, unique("late"))).token)).statusCode).toBe(200);
    const { token } = await linkIn(owner.email, "revert");
    await t.database.db
      .update(emailChanges)
      .set({ confirmedAt: new Date(Date.now() - 7 * 86_400_000 - 1000) })
      .where(eq(emailChanges.userId, owner.id));
    const reply = await revert(token);
    expect(reply.statusCode).toBe(400);
    expect(refusal(reply)).toEqual({ field: "token", reason: "This link has expired" });
    // A confirm link is no revert link.
    expect(refusal(await revert("B".repeat(43)))).toEqual({
      field: "token",
      reason: "This link is not valid",
    });
  });
});

describe("a Google account", () => {
  const idToken = (subject: string, email: string, issuedSecondsAgo = 10) =>
    google.idToken(email, { subject, issuedSecondsAgo });

  it("proves itself with a fresh Google sign-in of its own Google account", async () => {
    const email = unique("grace");
    const subject = `google-${email}`;
    const signedIn = await inject("POST", "/api/google/login", { tokenId: await idToken(subject, email) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const headers = { authorization: `Bearer ${signedIn.json<{ accessToken: string }>().accessToken}` };
    const target = unique("grace-new");

    const bare = await changeEmail(headers, { email: target });
    expect(bare.statusCode).toBe(400);
    expect(refusal(bare)).toEqual({
      field: "googleToken",
      reason: "Sign in with Google again to change the e-mail",
    });
    const stale = await changeEmail(headers, {
      email: target,
      googleToken: await idToken(subject, email, 6 * 60),
    });
    expect(refusal(stale)).toEqual({
      field: "googleToken",
      reason: "That Google sign-in is too old: sign in with Google again",
    });
    const someoneElse = await changeEmail(headers, {
      email: target,
      googleToken: await idToken("google-someone-else", "else@gmail.test"),
    });
    expect(refusal(someoneElse)).toEqual({
      field: "googleToken",
      reason: "That Google sign-in is not this account's",
    });
    const forged = await changeEmail(headers, { email: target, googleToken: "not.a.token" });
    expect(forged.statusCode).toBe(400);
    expect(refusal(forged)?.field).toBe("googleToken");
    expect(await mailsTo(target)).toHaveLength(0);

    const fresh = await changeEmail(headers, { email: target, googleToken: await idToken(subject, email) });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect((await confirm((await linkIn(target, "confirm")).token)).statusCode).toBe(200);
    expect((await inject("GET", "/api/user", undefined, headers)).json()).toMatchObject({
      email: target,
      googleUser: true,
    });
    // Google still signs it in: the account is found by its Google subject, not its e-mail.
    const again = await inject("POST", "/api/google/login", { tokenId: await idToken(subject, email) });
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe("rate limits", () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_IP: "2" } });
  });
  afterAll(() => limited.close());

  it("limits each link's route per client address, like the other sign-in routes", async () => {
    for (const url of ["/api/user/email/confirm", "/api/user/email/revert"]) {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const reply = await limited.app.inject({ method: "POST", url, payload: { token: "C".repeat(43) } });
        statuses.push(reply.statusCode);
      }
      expect(statuses, url).toEqual([400, 400, 429]);
    }
  });
});

import { createHash, randomBytes } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, passwordResetTokens, users } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";
import { revokeUserSessions } from "./sessions";

/**
 * Security notices reach the account's owner through the outbox, queued in the transaction of the change:
 * one for each change, none when the change is refused.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const FIREFOX_WINDOWS_UPDATED =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:134.0) Gecko/20100101 Firefox/134.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const PASSWORD = "Violet-harbour-lantern-92";
const NEW_PASSWORD = "Copper-meadow-falcon-417";

let serial = 0;
async function account(): Promise<{ id: number; email: string }> {
  const email = `notices-${++serial}@voltio.test`;
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/user",
    payload: { firstName: "Nora", lastName: "Notice", email, password: PASSWORD },
  });
  expect(reply.statusCode, reply.body).toBe(201);
  return { id: reply.json<{ id: number }>().id, email };
}

/** The security notices queued to an address, oldest first, by kind. */
async function noticesTo(email: string) {
  const rows = await t.database.db
    .select({ key: mailOutbox.dedupeKey, subject: mailOutbox.subject, text: mailOutbox.textBody })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, email), like(mailOutbox.dedupeKey, "security-notice:%")))
    .orderBy(mailOutbox.id);
  return rows.map((row) => ({ kind: row.key?.split(":")[1], subject: row.subject, text: row.text }));
}
const kindsTo = async (email: string) => (await noticesTo(email)).map((notice) => notice.kind);

const login = (email: string, password: string, userAgent: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/user/login",
    headers: { "user-agent": userAgent },
    payload: { email, password },
  });

describe("password changed", () => {
  it("tells the owner when the profile's password changes, and not when the old password is wrong", async () => {
    const { id, email } = await account();
    const headers = await t.bearer(id);
    const wrong = await t.app.inject({
      method: "PUT",
      url: "/api/user",
      headers,
      payload: { prevPassword: "not-the-password", newPassword: NEW_PASSWORD },
    });
    expect(wrong.statusCode).toBe(400);
    expect(await kindsTo(email)).toEqual([]);

    const changed = await t.app.inject({
      method: "PUT",
      url: "/api/user",
      headers,
      payload: { prevPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [notice] = await noticesTo(email);
    expect(notice).toMatchObject({ kind: "password-changed" });
    expect(notice!.subject).toBe("Voltio: your password was changed / tu contraseña cambió");
    expect(notice!.text).toContain("If this wasn't you, reset your password now");
    expect(notice!.text).toContain("Si no fuiste tú");
    expect(await kindsTo(email)).toEqual(["password-changed"]);
  });
});

describe("password reset", () => {
  /** A reset link's token, stored as the server stores it (its SHA-256). */
  async function resetToken(userId: number, expiresInMs = 60_000): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await t.database.db.insert(passwordResetTokens).values({
      userId,
      tokenHash: createHash("sha256").update(token).digest("hex"),
      expiresAt: new Date(Date.now() + expiresInMs),
    });
    return token;
  }
  const reset = (token: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/user/password/reset",
      payload: { token, password: NEW_PASSWORD },
    });

  it("tells the owner once the link sets a new password; an expired or used link tells nothing", async () => {
    const { id, email } = await account();
    expect((await reset(await resetToken(id, -1000))).statusCode).toBe(400);
    expect(await kindsTo(email)).toEqual([]);

    const token = await resetToken(id);
    expect((await reset(token)).statusCode).toBe(200);
    expect(await kindsTo(email)).toEqual(["password-reset"]);
    expect((await noticesTo(email))[0]!.text).toContain("was reset with a link sent to this address");

    expect((await reset(token)).statusCode).toBe(400);
    expect(await kindsTo(email)).toEqual(["password-reset"]);
  });
});

describe("new sign-in from a browser the account never used", () => {
  it("tells nothing of the first sign-in, nor of a browser seen before (even updated), nor of a failed one", async () => {
    const { email } = await account();
    expect((await login(email, PASSWORD, FIREFOX_WINDOWS)).statusCode).toBe(200);
    expect((await login(email, PASSWORD, FIREFOX_WINDOWS_UPDATED)).statusCode).toBe(200);
    expect((await login(email, "not-the-password", SAFARI_IPHONE)).statusCode).toBe(401);
    expect(await kindsTo(email)).toEqual([]);
  });

  it("tells nothing of the first sign-in since browsers were recorded: the sessions before name none", async () => {
    const { id, email } = await account();
    // As a session from before browsers were recorded, or one made by the server itself.
    await t.bearer(id);
    expect((await login(email, PASSWORD, FIREFOX_WINDOWS)).statusCode).toBe(200);
    expect(await kindsTo(email)).toEqual([]);
    expect((await login(email, PASSWORD, SAFARI_IPHONE)).statusCode).toBe(200);
    expect(await kindsTo(email)).toEqual(["new-browser"]);
  });

  it("tells the owner of a new browser and system, naming them, once", async () => {
    const { id, email } = await account();
    expect((await login(email, PASSWORD, FIREFOX_WINDOWS)).statusCode).toBe(200);
    expect((await login(email, PASSWORD, SAFARI_IPHONE)).statusCode).toBe(200);
    const notices = await noticesTo(email);
    expect(notices.map((notice) => notice.kind)).toEqual(["new-browser"]);
    expect(notices[0]!.subject).toBe("Voltio: new sign-in / nuevo inicio de sesión");
    expect(notices[0]!.text).toContain("from a browser it had not used before: Safari, iOS.");
    expect(notices[0]!.text).toContain("desde un navegador que no había usado antes: Safari, iOS.");

    // Seen now: signing in from it again tells nothing, even after its sessions ended.
    await revokeUserSessions(t.database.db, id);
    expect((await login(email, PASSWORD, SAFARI_IPHONE)).statusCode).toBe(200);
    // The same browser on another system is another browser.
    expect(
      (
        await login(
          email,
          PASSWORD,
          "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0",
        )
      ).statusCode,
    ).toBe(200);
    const after = await noticesTo(email);
    expect(after.map((notice) => notice.kind)).toEqual(["new-browser", "new-browser"]);
    expect(after[1]!.text).toContain("Firefox, macOS.");
  });
});

describe("admin role granted or removed", () => {
  const setRole = async (id: number, rol?: "admin" | "user") =>
    t.app.inject({
      method: "PUT",
      url: "/api/user/admin",
      headers: await t.bearer(1),
      payload: rol ? { id, rol } : { id },
    });

  it("tells the account when it becomes an admin and when it stops being one, not when nothing changes", async () => {
    const { id, email } = await account();
    expect((await setRole(id, "user")).statusCode).toBe(200);
    expect(await kindsTo(email)).toEqual([]);
    expect((await setRole(id, "admin")).statusCode).toBe(200);
    expect(await kindsTo(email)).toEqual(["admin-granted"]);
    expect((await noticesTo(email))[0]!.text).toContain("was made an admin of the store");
    expect((await setRole(id)).statusCode).toBe(200);
    expect(await kindsTo(email)).toEqual(["admin-granted", "admin-removed"]);
  });

  it("tells nothing when the change is refused", async () => {
    const [first] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, 1));
    const before = await kindsTo(first!.email);
    expect((await setRole(1, "user")).statusCode).toBe(403);
    expect(await kindsTo(first!.email)).toEqual(before);
  });
});

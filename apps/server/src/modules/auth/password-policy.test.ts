import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ACCOUNT_MESSAGES } from "@voltio/domain/account-messages";
import { createTestApp, type TestContext } from "../../../test/app";
import { TEST_PASSWORD_HASH_COST } from "../../../test/database";
import { mailOutbox, users } from "../../db/schema";
import { hashPassword, setPasswordHashCost } from "./password";

/** New passwords must be strong; old ones keep working, and their hashes catch up at the next login. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let serial = 0;
const STRONG = "Quartz-lantern-meadow-7";
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload, headers });
const login = (email: string, password: string) => post("/api/user/login", { email, password });
const register = (password: string, firstName = "Ana María", lastName = "García-López") =>
  post("/api/user", { firstName, lastName, email: `ana.garcia.${++serial}@example.com`, password });
const refusal = (reply: { statusCode: number; json: () => { details?: unknown[] } }) => {
  expect(reply.statusCode).toBe(400);
  return reply.json().details?.[0];
};
const storedHash = async (email: string) =>
  (await t.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, email)))[0]
    ?.hash;

describe("a new password", () => {
  it.each([
    ["12345678", ACCOUNT_MESSAGES.passwordCommon],
    ["password", ACCOUNT_MESSAGES.passwordCommon],
    ["Password1", ACCOUNT_MESSAGES.passwordCommon],
    ["aaaaaaaa", ACCOUNT_MESSAGES.passwordPattern],
    ["greenhouse", ACCOUNT_MESSAGES.passwordGuessable],
    ["GarciaLopez2026", ACCOUNT_MESSAGES.passwordPersonal],
  ])("at registration: %s is refused with 400 naming password and the reason", async (password, reason) => {
    expect(refusal(await register(password))).toEqual({ field: "password", reason });
  });

  it("at registration: a strong one is taken, and the same words are only weak for their owner", async () => {
    expect((await register(STRONG)).statusCode).toBe(201);
    expect((await register("GarciaLopez2026", "Berta", "Ruiz")).statusCode).toBe(201);
  });

  it("in the profile: a weak one is refused naming newPassword, the old one still works", async () => {
    const email = `change-${++serial}@voltio.test`;
    const created = await post("/api/user", {
      firstName: "Carl",
      lastName: "Change",
      email,
      password: STRONG,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { accessToken } = (await login(email, STRONG)).json<{ accessToken: string }>();
    const change = (newPassword: string) =>
      t.app.inject({
        method: "PUT",
        url: "/api/user",
        payload: { prevPassword: STRONG, newPassword },
        headers: { authorization: `Bearer ${accessToken}` },
      });
    expect(refusal(await change("12345678"))).toEqual({
      field: "newPassword",
      reason: ACCOUNT_MESSAGES.passwordCommon,
    });
    expect(refusal(await change("carlchange1"))).toEqual({
      field: "newPassword",
      reason: ACCOUNT_MESSAGES.passwordPersonal,
    });
    expect((await login(email, STRONG)).statusCode).toBe(200);
    expect((await change("Copper-meadow-falcon-417")).statusCode).toBe(200);
    expect((await login(email, "Copper-meadow-falcon-417")).statusCode).toBe(200);
  });

  it("by a reset link: a weak one is refused and the link stays usable for a strong one", async () => {
    const email = `reset-strength-${++serial}@voltio.test`;
    expect(
      (await post("/api/user", { firstName: "Rosa", lastName: "Reset", email, password: STRONG })).statusCode,
    ).toBe(201);
    expect((await post("/api/user/password/forgot", { email })).statusCode).toBe(202);
    const mail = await vi.waitFor(
      async () => {
        const [queued] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
        expect(queued).toBeDefined();
        return queued!;
      },
      { timeout: 10_000 },
    );
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail.textBody)![1]!;
    const reset = (password: string) => post("/api/user/password/reset", { token, password });
    expect(refusal(await reset("RosaReset1"))).toEqual({
      field: "password",
      reason: ACCOUNT_MESSAGES.passwordPersonal,
    });
    expect(refusal(await reset("qwertyuiop"))).toEqual({
      field: "password",
      reason: ACCOUNT_MESSAGES.passwordCommon,
    });
    expect((await reset("Copper-meadow-falcon-417")).statusCode).toBe(200);
  });
});

describe("an existing password", () => {
  it("signs in even when it is weak by today's rule (the demo logins among them)", async () => {
    expect((await login("admin@voltio.test", "Admin1234!")).statusCode).toBe(200);
    const email = `weak-${++serial}@voltio.test`;
    await t.database.db
      .insert(users)
      .values({ firstName: "Old", lastName: "Timer", email, passwordHash: await hashPassword("12345678") });
    expect((await login(email, "12345678")).statusCode).toBe(200);
  });

  it("made at a lower cost is hashed again at today's cost by the next successful login only", async () => {
    const email = `upgrade-${++serial}@voltio.test`;
    setPasswordHashCost(TEST_PASSWORD_HASH_COST - 1);
    try {
      const old = await hashPassword(STRONG);
      await t.database.db
        .insert(users)
        .values({ firstName: "Una", lastName: "Upgrade", email, passwordHash: old });
    } finally {
      setPasswordHashCost(TEST_PASSWORD_HASH_COST);
    }
    const costOf = async () => (await storedHash(email))!.split("$")[1];
    expect(await costOf()).toBe(String(2 ** (TEST_PASSWORD_HASH_COST - 1)));
    expect((await login(email, "Wrong-password-1")).statusCode).toBe(401);
    expect(await costOf()).toBe(String(2 ** (TEST_PASSWORD_HASH_COST - 1)));
    expect((await login(email, STRONG)).statusCode).toBe(200);
    expect(await costOf()).toBe(String(2 ** TEST_PASSWORD_HASH_COST));
    const upgraded = await storedHash(email);
    // Already at today's cost: the next login leaves it as it is.
    expect((await login(email, STRONG)).statusCode).toBe(200);
    expect(await storedHash(email)).toBe(upgraded);
  });
});

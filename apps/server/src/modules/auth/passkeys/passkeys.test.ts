import { and, eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Passkey, PasskeyLoginOptionsReply } from "@voltio/domain/passkeys";
import { createTestApp, type TestContext } from "../../../../test/app";
import { SoftAuthenticator } from "../../../../test/webauthn-authenticator";
import { authChallenges, mailOutbox, passkeys, refreshTokens, users } from "../../../db/schema";
import {
  PENDING_LOGIN_GONE,
  PENDING_LOGIN_PURPOSE,
  WRONG_SECOND_FACTOR,
  startPendingLogin,
} from "../second-factor/pending-login";
import { deviceName } from "./device-name";

/**
 * Passkeys against the real server and database, with a software authenticator that builds and signs the
 * WebAuthn messages itself (test/webauthn-authenticator.ts): nothing of the verification is faked.
 */
let t: TestContext;
let rp: { id: string; origin: string };
beforeAll(async () => {
  t = await createTestApp();
  const url = new URL(t.config.publicUrl);
  rp = { id: url.hostname, origin: url.origin };
});
afterAll(() => t.close());

const CHROME_ON_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let serial = 0;
interface Account {
  id: number;
  email: string;
  password: string;
  headers: Record<string, string>;
  authenticator: SoftAuthenticator;
}

/** A fresh account, signed in, with an authenticator of its own. */
async function account(): Promise<Account> {
  const email = `passkey-${++serial}@voltio.test`;
  const password = `Quartz-lantern-${serial}-meadow`;
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/user",
    payload: { firstName: "Paula", lastName: "Keys", email, password },
  });
  expect(reply.statusCode, reply.body).toBe(201);
  const id = reply.json<{ id: number }>().id;
  const headers = { ...(await t.bearer(id)), "user-agent": CHROME_ON_LINUX };
  return { id, email, password, headers, authenticator: new SoftAuthenticator(rp.id, rp.origin) };
}

const askOptions = (who: Pick<Account, "headers">, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/user/passkeys/options", headers: who.headers, payload });

const registrationOptions = async (who: Account) => {
  const reply = await askOptions(who, { currentPassword: who.password });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ challenge: string; user: { id: string }; rp: { id: string } }>();
};

const addPasskey = (who: Account, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/user/passkeys", headers: who.headers, payload });

/** Options, the authenticator makes the credential, the server keeps it. */
async function withPasskey(who: Account, name?: string) {
  const made = who.authenticator.register(await registrationOptions(who));
  const reply = await addPasskey(who, { response: made.response, name });
  expect(reply.statusCode, reply.body).toBe(201);
  return { passkey: reply.json<Passkey>(), credential: made.credential };
}

const loginOptions = async () => {
  const reply = await t.app.inject({ method: "POST", url: "/api/user/login/passkey/options" });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<PasskeyLoginOptionsReply>();
};

const passkeyLogin = (payload: object) =>
  t.app.inject({
    method: "POST",
    url: "/api/user/login/passkey",
    payload,
    headers: { "user-agent": CHROME_ON_LINUX },
  });

const list = async (who: Account) => {
  const reply = await t.app.inject({ url: "/api/user/passkeys", headers: who.headers });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<Passkey[]>();
};

const storedKey = async (id: number) =>
  (await t.database.db.select().from(passkeys).where(eq(passkeys.id, id)))[0];

const noticesTo = (email: string) =>
  t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.id);

describe("adding a passkey", () => {
  it("keeps the credential under the browser's name, lists it, and tells the account's e-mail", async () => {
    const who = await account();
    const options = await registrationOptions(who);
    expect(options.rp.id).toBe(rp.id);
    const made = who.authenticator.register(options);
    const reply = await addPasskey(who, { response: made.response });
    expect(reply.statusCode, reply.body).toBe(201);
    const added = reply.json<Passkey>();
    expect(added).toMatchObject({ name: "Chrome on Linux", lastUsedAt: null });
    expect(await list(who)).toEqual([added]);
    const stored = await storedKey(added.id);
    expect(stored).toMatchObject({
      userId: who.id,
      credentialId: made.response.id,
      signCount: 0,
      transports: ["internal"],
    });
    const [notice] = await noticesTo(who.email);
    expect(notice?.subject).toContain("second factor added");
    expect(notice?.textBody).toContain("A passkey was added to your Voltio account");
  });

  it("takes the name the user gives, and renames it", async () => {
    const who = await account();
    const { passkey } = await withPasskey(who, "  Work laptop ");
    expect(passkey.name).toBe("Work laptop");
    const renamed = await t.app.inject({
      method: "PATCH",
      url: `/api/user/passkeys/${passkey.id}`,
      headers: who.headers,
      payload: { name: "Old laptop" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await list(who)).map((key) => key.name)).toEqual(["Old laptop"]);
  });

  it("refuses a credential made for another origin or another relying party", async () => {
    const who = await account();
    const evilOrigin = who.authenticator.register(await registrationOptions(who), {
      origin: "https://evil.example",
    });
    const reply = await addPasskey(who, { response: evilOrigin.response });
    expect(reply.statusCode, reply.body).toBe(400);
    expect(reply.json()).toMatchObject({ details: [{ field: "response" }] });
    expect(reply.json<{ error: string }>().error).toContain("origin");

    const evilRp = who.authenticator.register(await registrationOptions(who), { rpId: "evil.example" });
    expect((await addPasskey(who, { response: evilRp.response })).statusCode).toBe(400);
    expect(await list(who)).toEqual([]);
  });

  it("refuses a passkey the device did not unlock: it must sign in alone", async () => {
    const who = await account();
    const made = who.authenticator.register(await registrationOptions(who), { userVerified: false });
    expect((await addPasskey(who, { response: made.response })).statusCode).toBe(400);
  });

  it("uses a challenge once, and only for the account it was given to", async () => {
    const who = await account();
    const other = await account();
    const options = await registrationOptions(who);
    const stolen = other.authenticator.register(options);
    const byOther = await addPasskey(other, { response: stolen.response });
    expect(byOther.statusCode, byOther.body).toBe(400);
    expect(byOther.json<{ error: string }>().error).toContain("expired or was already used");

    const made = who.authenticator.register(await registrationOptions(who));
    expect((await addPasskey(who, { response: made.response })).statusCode).toBe(201);
    const again = await addPasskey(who, { response: made.response });
    expect(again.statusCode, again.body).toBe(400);
    expect(await list(who)).toHaveLength(1);
  });

  it("needs the owner's proof first: the current password, or a Google account's recent sign-in", async () => {
    const who = await account();
    for (const payload of [{}, { currentPassword: "not-the-password" }]) {
      const refused = await askOptions(who, payload);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ details: [{ field: "currentPassword" }] });
    }
    expect((await askOptions(who, { currentPassword: who.password })).statusCode).toBe(200);

    const [google] = await t.database.db
      .insert(users)
      .values({
        firstName: "Gala",
        lastName: "Google",
        email: `passkey-google-${++serial}@voltio.test`,
        passwordHash: null,
        googleUser: true,
      })
      .returning({ id: users.id });
    const fresh = { headers: await t.bearer(google!.id) };
    expect((await askOptions(fresh, {})).statusCode).toBe(200);
    // The same session, signed in long ago: a stolen access token of it can't plant a passkey.
    const sessionId = (decodeJwt(fresh.headers.authorization.slice("Bearer ".length)) as { sid: string }).sid;
    await t.database.db
      .update(refreshTokens)
      .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(refreshTokens.familyId, sessionId));
    const stale = await askOptions(fresh, {});
    expect(stale.statusCode, stale.body).toBe(400);
    expect(stale.json<{ error: string }>().error).toContain("sign in again");
  });

  it("stores the challenge hashed, for five minutes", async () => {
    const who = await account();
    const options = await registrationOptions(who);
    const [row] = await t.database.db
      .select()
      .from(authChallenges)
      .where(eq(authChallenges.challenge, options.challenge));
    expect(row).toMatchObject({ purpose: "passkey-register", userId: who.id, usedAt: null });
    expect(row!.tokenHash).not.toContain(options.challenge);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const minutes = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(4.9);
    expect(minutes).toBeLessThanOrEqual(5.01);
  });

  it("asks for a discoverable, user-verified credential and excludes the ones already kept", async () => {
    const who = await account();
    const { passkey } = await withPasskey(who);
    const options = await registrationOptions(who);
    const stored = await storedKey(passkey.id);
    expect(options).toMatchObject({
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      attestation: "none",
      excludeCredentials: [{ id: stored!.credentialId, type: "public-key" }],
    });
  });
});

describe("signing in with a passkey alone", () => {
  it("answers the usual login reply, with a session that proved a second factor", async () => {
    const who = await account();
    const { passkey } = await withPasskey(who);
    const { token, options } = await loginOptions();
    expect(options).toMatchObject({ rpId: rp.id, userVerification: "required" });
    expect(options).not.toHaveProperty("allowCredentials.0");
    const reply = await passkeyLogin({ token, response: who.authenticator.assert(options) });
    expect(reply.statusCode, reply.body).toBe(200);
    const tokens = reply.json<{ msg: string; accessToken: string; refreshToken: string }>();
    expect(tokens.msg).toBe("Logged in");

    const me = await t.app.inject({
      url: "/api/user",
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json<{ email: string }>().email).toBe(who.email);
    const sessions = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, who.id));
    const session = sessions.find((row) => row.userAgent === CHROME_ON_LINUX && row.secondFactorAt);
    expect(session, "the passkey's session").toBeDefined();
    expect((await list(who))[0]).toMatchObject({ id: passkey.id, lastUsedAt: expect.any(String) });
  });

  it("moves the sign counter on, and refuses a signature whose counter went back (a cloned key)", async () => {
    const who = await account();
    const { passkey, credential } = await withPasskey(who);
    for (const expected of [1, 2]) {
      const { token, options } = await loginOptions();
      const reply = await passkeyLogin({ token, response: who.authenticator.assert(options) });
      expect(reply.statusCode, reply.body).toBe(200);
      expect((await storedKey(passkey.id))?.signCount).toBe(expected);
    }
    const { token, options } = await loginOptions();
    const cloned = who.authenticator.assert(options, { credential, counter: 2 });
    const reply = await passkeyLogin({ token, response: cloned });
    expect(reply.statusCode, reply.body).toBe(401);
    expect((await storedKey(passkey.id))?.signCount).toBe(2);
  });

  it("refuses a signature for another origin or relying party", async () => {
    const who = await account();
    await withPasskey(who);
    for (const ceremony of [{ origin: "https://evil.example" }, { rpId: "evil.example" }]) {
      const { token, options } = await loginOptions();
      const reply = await passkeyLogin({ token, response: who.authenticator.assert(options, ceremony) });
      expect(reply.statusCode, reply.body).toBe(401);
      expect(reply.json<{ error: string }>().error).toBe("The passkey was not accepted");
    }
  });

  it("refuses a passkey the device did not unlock", async () => {
    const who = await account();
    await withPasskey(who);
    const { token, options } = await loginOptions();
    const reply = await passkeyLogin({
      token,
      response: who.authenticator.assert(options, { userVerified: false }),
    });
    expect(reply.statusCode, reply.body).toBe(401);
  });

  it("uses a challenge once: the same answer replayed, or another answer to it, is refused", async () => {
    const who = await account();
    await withPasskey(who);
    const { token, options } = await loginOptions();
    const response = who.authenticator.assert(options);
    expect((await passkeyLogin({ token, response })).statusCode).toBe(200);
    const replayed = await passkeyLogin({ token, response });
    expect(replayed.statusCode, replayed.body).toBe(401);
    expect(replayed.json<{ error: string }>().error).toContain("expired");
    const fresh = await passkeyLogin({ token, response: who.authenticator.assert(options) });
    expect(fresh.statusCode, fresh.body).toBe(401);
  });

  it("refuses an answer signed for another challenge than the token's", async () => {
    const who = await account();
    await withPasskey(who);
    const first = await loginOptions();
    const second = await loginOptions();
    const reply = await passkeyLogin({
      token: second.token,
      response: who.authenticator.assert(first.options),
    });
    expect(reply.statusCode, reply.body).toBe(401);
  });

  it("refuses a credential presented as another account's (its user handle)", async () => {
    const who = await account();
    const other = await account();
    const { credential } = await withPasskey(who);
    await withPasskey(other);
    credential.userHandle = Buffer.from(String(other.id)).toString("base64url");
    const { token, options } = await loginOptions();
    const reply = await passkeyLogin({ token, response: who.authenticator.assert(options, { credential }) });
    expect(reply.statusCode, reply.body).toBe(401);
  });

  it("refuses an unknown credential and an unknown token", async () => {
    const stranger = new SoftAuthenticator(rp.id, rp.origin);
    stranger.register({ challenge: "AAAA", user: { id: "MQ" } });
    const { token, options } = await loginOptions();
    expect((await passkeyLogin({ token, response: stranger.assert(options) })).statusCode).toBe(401);
    const who = await account();
    await withPasskey(who);
    const next = await loginOptions();
    const reply = await passkeyLogin({
      token: "not-a-token",
      response: who.authenticator.assert(next.options),
    });
    expect(reply.statusCode, reply.body).toBe(401);
  });
});

describe("a passkey as the login's second step", () => {
  /** The step a right password opens for an account with a second factor. */
  const pendingLogin = async (who: Account) =>
    (await startPendingLogin(t.database.db, who.id, { userAgent: CHROME_ON_LINUX })).token;

  const stepOptions = async (token: string) => {
    const reply = await t.app.inject({
      method: "POST",
      url: "/api/user/login/second-factor/passkey/options",
      payload: { token },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json<PasskeyLoginOptionsReply>().options as {
      challenge: string;
      allowCredentials?: { id: string }[];
    };
  };

  const finishStep = (payload: object) =>
    t.app.inject({ method: "POST", url: "/api/user/login/second-factor/passkey", payload });

  it("names only the account's passkeys, and starts a session with the second factor proved", async () => {
    const who = await account();
    const other = await account();
    const first = await withPasskey(who);
    const second = await withPasskey(who);
    await withPasskey(other);
    const token = await pendingLogin(who);
    const options = await stepOptions(token);
    expect(options.allowCredentials?.map((key) => key.id).sort()).toEqual(
      [first.credential.id, second.credential.id].map((id) => id.toString("base64url")).sort(),
    );
    const reply = await finishStep({ token, response: who.authenticator.assert(options) });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toMatchObject({ msg: "Logged in", accessToken: expect.any(String) });
    const sessions = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, who.id));
    expect(sessions.some((row) => row.userAgent === CHROME_ON_LINUX && row.secondFactorAt)).toBe(true);

    const again = await finishStep({ token, response: who.authenticator.assert(options) });
    expect(again.statusCode, again.body).toBe(401);
    expect(again.json()).toMatchObject({ error: PENDING_LOGIN_GONE });
  });

  it("refuses another account's passkey as a wrong code, and uses the challenge up", async () => {
    const who = await account();
    const other = await account();
    await withPasskey(who);
    await withPasskey(other);
    const token = await pendingLogin(who);
    const options = await stepOptions(token);
    const wrong = await finishStep({ token, response: other.authenticator.assert(options) });
    expect(wrong.statusCode, wrong.body).toBe(401);
    expect(wrong.json()).toMatchObject({ error: WRONG_SECOND_FACTOR });
    const [step] = await t.database.db
      .select()
      .from(authChallenges)
      .where(and(eq(authChallenges.userId, who.id), eq(authChallenges.purpose, PENDING_LOGIN_PURPOSE)));
    expect(step?.attempts).toBe(1);

    // The owner's answer to the same challenge comes too late; a new challenge works.
    const late = await finishStep({ token, response: who.authenticator.assert(options) });
    expect(late.statusCode, late.body).toBe(401);
    const fresh = await stepOptions(token);
    const reply = await finishStep({ token, response: who.authenticator.assert(fresh) });
    expect(reply.statusCode, reply.body).toBe(200);
  });

  it("refuses a step that is unknown, and an account without passkeys", async () => {
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/user/login/second-factor/passkey/options",
      payload: { token: "no-such-step" },
    });
    expect(unknown.statusCode, unknown.body).toBe(401);
    expect(unknown.json()).toMatchObject({ error: PENDING_LOGIN_GONE, secondFactorGone: true });
    const without = await account();
    const none = await t.app.inject({
      method: "POST",
      url: "/api/user/login/second-factor/passkey/options",
      payload: { token: await pendingLogin(without) },
    });
    expect(none.statusCode, none.body).toBe(400);
  });
});

describe("removing a passkey", () => {
  it("is only the owner's: another user's rename and removal answer 404 and change nothing", async () => {
    const owner = await account();
    const other = await account();
    const { passkey } = await withPasskey(owner);
    const asOther = (method: "PATCH" | "DELETE") =>
      t.app.inject({
        method,
        url: `/api/user/passkeys/${passkey.id}`,
        headers: other.headers,
        payload: method === "PATCH" ? { name: "Mine now" } : undefined,
      });
    expect((await asOther("PATCH")).statusCode).toBe(404);
    expect((await asOther("DELETE")).statusCode).toBe(404);
    expect(await list(owner)).toEqual([passkey]);
    expect(await list(other)).toEqual([]);
  });

  it("stops it signing in, and tells the account's e-mail", async () => {
    const who = await account();
    const { passkey } = await withPasskey(who);
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/user/passkeys/${passkey.id}`,
      headers: who.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await list(who)).toEqual([]);
    const { token, options } = await loginOptions();
    const reply = await passkeyLogin({ token, response: who.authenticator.assert(options) });
    expect(reply.statusCode, reply.body).toBe(401);
    const notices = await noticesTo(who.email);
    expect(notices.map((mail) => mail.subject)).toEqual([
      expect.stringContaining("second factor added"),
      expect.stringContaining("second factor removed"),
    ]);
    const again = await t.app.inject({
      method: "DELETE",
      url: `/api/user/passkeys/${passkey.id}`,
      headers: who.headers,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe("the public passkey routes", () => {
  it("are limited per client address like the other sign-in routes: 429 with Retry-After", async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_IP: "3" } });
    try {
      const ask = (url: string, remoteAddress: string, payload?: object) =>
        limited.app.inject({ method: "POST", url, remoteAddress, payload });
      const options = await ask("/api/user/login/passkey/options", "203.0.113.7");
      expect(options.statusCode, options.body).toBe(200);
      const { token, options: challenge } = options.json<PasskeyLoginOptionsReply>();
      const stranger = new SoftAuthenticator(rp.id, rp.origin);
      stranger.register({ challenge: "AAAA", user: { id: "MQ" } });
      const refused = await ask("/api/user/login/passkey", "203.0.113.7", {
        token,
        response: stranger.assert(challenge),
      });
      expect(refused.statusCode, refused.body).toBe(401);
      expect((await ask("/api/user/login/passkey/options", "203.0.113.7")).statusCode).toBe(200);
      const over = await ask("/api/user/login/passkey/options", "203.0.113.7");
      expect(over.statusCode, over.body).toBe(429);
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
      // Another address is counted on its own.
      expect((await ask("/api/user/login/passkey/options", "198.51.100.4")).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("a new passkey's default name", () => {
  it("is the browser and system of the User-Agent", () => {
    expect(deviceName(CHROME_ON_LINUX)).toBe("Chrome on Linux");
    expect(
      deviceName(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
      ),
    ).toBe("Safari on macOS");
    expect(
      deviceName(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      ),
    ).toBe("Edge on Windows");
    expect(deviceName("Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0")).toBe(
      "Firefox on Android",
    );
    expect(deviceName("Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0.0.0 Safari/537.36")).toBe(
      "Chrome on Linux",
    );
    expect(deviceName(undefined)).toBe("Passkey");
  });
});

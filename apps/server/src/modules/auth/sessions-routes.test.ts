import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Session } from "@voltio/domain/sessions";
import { buildApp, type App } from "../../app";
import { refreshTokens } from "../../db/schema";
import { createTestApp, type TestContext } from "../../../test/app";

/** "Your sessions": list, end one, end the others; on two app instances (processes) of one database. */
let t: TestContext;
let other: App;
beforeAll(async () => {
  t = await createTestApp();
  other = await buildApp(t.config, t.database.db);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const PASSWORD = "Violet-harbour-lantern-92";

let serial = 0;
/** An account of the test's own: the demo accounts' sessions are every other test's too. */
async function account(): Promise<string> {
  const email = `sessions-${++serial}@voltio.test`;
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/user",
    payload: { firstName: "Sal", lastName: "Session", email, password: PASSWORD },
  });
  expect(reply.statusCode, reply.body).toBe(201);
  return email;
}

interface Login {
  accessToken: string;
  refreshToken: string;
  bearer: { authorization: string };
}

async function login(email: string, userAgent = FIREFOX_WINDOWS, app = t.app): Promise<Login> {
  const reply = await app.inject({
    method: "POST",
    url: "/api/user/login",
    headers: { "user-agent": userAgent },
    payload: { email, password: PASSWORD },
  });
  expect(reply.statusCode, reply.body).toBe(200);
  const tokens = reply.json<{ accessToken: string; refreshToken: string }>();
  return { ...tokens, bearer: { authorization: `Bearer ${tokens.accessToken}` } };
}

const sessionsOf = async (who: Login, app = t.app) => {
  const reply = await app.inject({ url: "/api/user/sessions", headers: who.bearer });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<Session[]>();
};
const end = (who: Login, id: string, app = t.app) =>
  app.inject({ method: "DELETE", url: `/api/user/sessions/${id}`, headers: who.bearer });
const endOthers = (who: Login, app = t.app) =>
  app.inject({ method: "DELETE", url: "/api/user/sessions", headers: who.bearer });
const me = (who: Login, app = t.app) => app.inject({ url: "/api/user", headers: who.bearer });
const refresh = (who: Login, app = t.app) =>
  app.inject({ method: "POST", url: "/api/user/token", payload: { token: who.refreshToken } });

/** The session id (`sid`) an access token belongs to, as the client never needs to read it. */
const sidOf = (who: Login) =>
  (JSON.parse(Buffer.from(who.accessToken.split(".")[1]!, "base64url").toString()) as { sid: string }).sid;

describe("GET /api/user/sessions", () => {
  it("lists the caller's open sessions with browser, system and dates, this one first and marked", async () => {
    const email = await account();
    const before = Date.now();
    const desk = await login(email, FIREFOX_WINDOWS);
    const phone = await login(email, SAFARI_IPHONE);
    const curl = await login(email, "curl/8.5.0");
    const listed = await sessionsOf(phone);
    expect(listed.map((session) => session.id)).toEqual([sidOf(phone), sidOf(curl), sidOf(desk)]);
    expect(listed[0]).toMatchObject({ browser: "Safari", system: "iOS", current: true });
    expect(listed[1]).toMatchObject({ browser: null, system: null, current: false });
    expect(listed[2]).toMatchObject({ browser: "Firefox", system: "Windows", current: false });
    for (const session of listed) {
      expect(Date.parse(session.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(session.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
    }
    // Another account's view has none of them.
    const stranger = await login(await account());
    expect((await sessionsOf(stranger)).map((session) => session.id)).toEqual([sidOf(stranger)]);
  });

  it("leaves out ended sessions: logged out, expired", async () => {
    const email = await account();
    const kept = await login(email);
    const loggedOut = await login(email);
    const expired = await login(email);
    await t.app.inject({
      method: "DELETE",
      url: "/api/user/token",
      payload: { token: loggedOut.refreshToken },
    });
    await t.database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.familyId, sidOf(expired)));
    expect((await sessionsOf(kept)).map((session) => session.id)).toEqual([sidOf(kept)]);
  });

  it("moves a session's last use on each token refresh", async () => {
    const email = await account();
    const session = await login(email);
    const longAgo = new Date("2026-01-01T00:00:00Z");
    await t.database.db
      .update(refreshTokens)
      .set({ lastUsedAt: longAgo })
      .where(eq(refreshTokens.familyId, sidOf(session)));
    expect((await sessionsOf(session))[0]!.lastUsedAt).toBe(longAgo.toISOString());
    expect((await refresh(session)).statusCode).toBe(200);
    const [listed] = await sessionsOf(session);
    expect(Date.parse(listed!.lastUsedAt)).toBeGreaterThan(longAgo.getTime());
    expect(Date.parse(listed!.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(listed!.createdAt));
  });

  it("needs a signed-in caller", async () => {
    expect((await t.app.inject({ url: "/api/user/sessions" })).statusCode).toBe(401);
  });
});

describe("DELETE /api/user/sessions/:id", () => {
  it("ends one of the caller's sessions: its access and refresh tokens stop at once, the others go on", async () => {
    const email = await account();
    const keeper = await login(email);
    const ended = await login(email, SAFARI_IPHONE);
    const bystander = await login(email);
    const reply = await end(keeper, sidOf(ended));
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toEqual({ msg: "Session ended" });
    expect(reply.headers["cache-control"]).toBe("no-store");
    expect((await me(ended)).statusCode).toBe(401);
    expect((await refresh(ended)).statusCode).toBe(401);
    expect((await me(keeper)).statusCode).toBe(200);
    expect((await me(bystander)).statusCode).toBe(200);
    expect((await sessionsOf(keeper)).map((session) => session.id).sort()).toEqual(
      [sidOf(keeper), sidOf(bystander)].sort(),
    );
  });

  it("answers 404, not 403, for another account's session, and leaves it running", async () => {
    const mine = await login(await account());
    const theirs = await login(await account());
    const reply = await end(mine, sidOf(theirs));
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toMatchObject({ error: "Session Not Found" });
    expect((await me(theirs)).statusCode).toBe(200);
    // Exactly like an id nobody has, and like a session of one's own that already ended.
    expect((await end(mine, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    const email = await account();
    const caller = await login(email);
    const ended = await login(email);
    expect((await end(caller, sidOf(ended))).statusCode).toBe(200);
    expect((await end(caller, sidOf(ended))).statusCode).toBe(404);
  });

  it("refuses an id that isn't a session id with the field and the reason", async () => {
    const mine = await login(await account());
    const reply = await end(mine, "not-a-uuid");
    expect(reply.statusCode).toBe(400);
    expect(reply.json().details[0]).toMatchObject({ field: "id" });
  });

  it("can end the caller's own session, which then signs out", async () => {
    const mine = await login(await account());
    expect((await end(mine, sidOf(mine))).statusCode).toBe(200);
    expect((await me(mine)).statusCode).toBe(401);
  });
});

describe("DELETE /api/user/sessions", () => {
  it("ends every other session of the caller and keeps this one; other accounts' sessions go on", async () => {
    const email = await account();
    const keeper = await login(email);
    const others = [await login(email, SAFARI_IPHONE), await login(email, "curl/8.5.0")];
    const stranger = await login(await account());
    const reply = await endOthers(keeper);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toEqual({ msg: "Other sessions ended", ended: 2 });
    for (const session of others) {
      expect((await me(session)).statusCode).toBe(401);
      expect((await refresh(session)).statusCode).toBe(401);
    }
    expect((await me(keeper)).statusCode).toBe(200);
    expect((await refresh(keeper)).statusCode).toBe(200);
    expect((await me(stranger)).statusCode).toBe(200);
    expect((await sessionsOf(keeper)).map((session) => session.id)).toEqual([sidOf(keeper)]);
    expect((await endOthers(keeper)).json()).toEqual({ msg: "Other sessions ended", ended: 0 });
  });
});

describe("two processes on one database", () => {
  it("refuses on one process, at once, a session ended on the other", async () => {
    const email = await account();
    const here = await login(email, FIREFOX_WINDOWS, t.app);
    const there = await login(email, SAFARI_IPHONE, other);
    // Both processes serve both sessions.
    for (const app of [t.app, other]) {
      expect((await me(here, app)).statusCode).toBe(200);
      expect((await me(there, app)).statusCode).toBe(200);
    }
    expect((await end(here, sidOf(there), t.app)).statusCode).toBe(200);
    // The very next request on the other process is refused: no cache of sessions to wait for.
    expect((await me(there, other)).statusCode).toBe(401);
    expect((await refresh(there, other)).statusCode).toBe(401);
    expect((await me(here, other)).statusCode).toBe(200);

    const third = await login(email, SAFARI_IPHONE, t.app);
    expect((await endOthers(here, other)).json()).toMatchObject({ ended: 1 });
    expect((await me(third, t.app)).statusCode).toBe(401);
    expect((await sessionsOf(here, t.app)).map((session) => session.id)).toEqual([sidOf(here)]);
  });
});

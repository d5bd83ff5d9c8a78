import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiFetch, SESSION_EVENT } from "./client";
import { ROLE_CHANGED_EVENT } from "./role-change";
import { tokens } from "./tokens";
import { jsonReply as json } from "@/test/fake-api";

/**
 * An admin made the signed-in user an admin. The server (a small fake over fetch: it is
 * outside the page) keeps the login and marks every reply to the old token with the new role, until the
 * client holds a token of that role.
 */
let refreshCalls = 0;
let sessionEvents = 0;
let told: unknown[] = [];
const countEvent = () => sessionEvents++;
const tell = (event: Event) => told.push((event as CustomEvent).detail);

beforeEach(() => {
  refreshCalls = 0;
  sessionEvents = 0;
  told = [];
  window.addEventListener(SESSION_EVENT, countEvent);
  window.addEventListener(ROLE_CHANGED_EVENT, tell);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const auth = new Headers(init.headers).get("authorization");
      if (url === "/api/user/token") {
        refreshCalls++;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return json(200, { token: "token-of-admin" });
      }
      if (auth === "Bearer token-of-user") {
        // The old token still works (the login goes on), with the notice.
        if (url === "/api/user/all") return json(200, [], { "voltio-role-changed": "admin" });
        return json(200, { id: 7, rol: "admin" }, { "voltio-role-changed": "admin" });
      }
      if (url === "/api/user/all" && auth === "Bearer token-of-demoted")
        return json(403, { error: "Only admins can do this" }, { "voltio-role-changed": "user" });
      return json(200, { id: 7, rol: "admin" });
    }),
  );
});

afterEach(() => {
  window.removeEventListener(SESSION_EVENT, countEvent);
  window.removeEventListener(ROLE_CHANGED_EVENT, tell);
  vi.unstubAllGlobals();
  localStorage.clear();
});

const settled = () => vi.waitFor(() => expect(told.length).toBeGreaterThan(0));

describe("a reply saying the role changed", () => {
  it("keeps the login: one new access token and one re-read of the session for requests sent together", async () => {
    tokens.set("token-of-user", "refresh-1");
    const replies = await Promise.all([apiFetch("/user"), apiFetch("/user"), apiFetch("/user/all")]);
    expect(replies[0]).toEqual({ id: 7, rol: "admin" });
    await settled();
    expect(refreshCalls).toBe(1);
    expect(tokens.access()).toBe("token-of-admin");
    expect(tokens.refresh()).toBe("refresh-1");
    expect(sessionEvents).toBe(1);
    expect(told).toEqual(["admin"]);
    // With the new token the replies say nothing more.
    await apiFetch("/user");
    expect(refreshCalls).toBe(1);
  });

  it("is acted on for a refusal too: a demoted admin's 403", async () => {
    tokens.set("token-of-demoted", "refresh-1");
    await expect(apiFetch("/user/all")).rejects.toBeInstanceOf(ApiError);
    await settled();
    expect(refreshCalls).toBe(1);
    expect(tokens.present()).toBe(true);
    expect(told).toEqual(["user"]);
  });
});

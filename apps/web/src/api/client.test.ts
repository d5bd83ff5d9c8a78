import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiFetch, SESSION_EVENT } from "./client";
import { tokens } from "./tokens";
import { jsonReply as json } from "@/test/fake-api";

/**
 * The token refresh of docs/product-rules.md §8 and §10.7. The server is outside the page, so a small fake plays it over
 * fetch: access tokens "old" (expired) and "new-1", "new-2"…, and the login's one refresh token "refresh-1",
 * which works for the whole session.
 */
interface FakeServer {
  refreshCalls: number;
  /** The refresh tokens each refresh presented. */
  presented: string[];
  userCalls: string[];
  refreshAnswer: "ok" | "refused" | "throttled" | "fault";
  /** When true, even the new access token is reported expired. */
  alwaysExpired: boolean;
}

let server: FakeServer;

const expired = () => json(403, { error: { name: "TokenExpiredError", message: "jwt expired" } });

beforeEach(() => {
  server = { refreshCalls: 0, presented: [], userCalls: [], refreshAnswer: "ok", alwaysExpired: false };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const auth = new Headers(init.headers).get("authorization") ?? "";
      if (url === "/api/user/token") {
        server.refreshCalls++;
        // Give concurrent callers time to pile up behind the one refresh.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const { token } = JSON.parse(String(init.body)) as { token: string };
        server.presented.push(token);
        if (server.refreshAnswer === "throttled") return json(429, { error: "Too many attempts" });
        if (server.refreshAnswer === "fault") return json(500, { error: "Internal Server Error" });
        if (server.refreshAnswer === "refused" || token !== "refresh-1")
          return json(401, { error: "Invalid refresh token" });
        return json(200, { token: `new-${server.refreshCalls}` });
      }
      server.userCalls.push(auth);
      if (auth === "Bearer old" || server.alwaysExpired) return expired();
      return json(200, { id: 2, firstName: "Sam", method: init.method ?? "GET" });
    }),
  );
  tokens.set("old", "refresh-1");
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("apiFetch on an expired access token", () => {
  it("posts the refresh token, stores only the new access token and retries the request once", async () => {
    const user = await apiFetch<{ id: number; method: string }>("/user", { method: "PUT", body: "{}" });
    expect(user).toMatchObject({ id: 2, method: "PUT" });
    expect(server.presented).toEqual(["refresh-1"]);
    expect(server.userCalls).toEqual(["Bearer old", "Bearer new-1"]);
    expect([tokens.access(), tokens.refresh()]).toEqual(["new-1", "refresh-1"]);
  });

  it("refreshes with the same refresh token each time the access token expires", async () => {
    await apiFetch("/user");
    tokens.set("old");
    await apiFetch("/user");
    expect(server.presented).toEqual(["refresh-1", "refresh-1"]);
    expect([tokens.access(), tokens.refresh()]).toEqual(["new-2", "refresh-1"]);
  });

  it("shares one refresh among requests that expire together", async () => {
    const replies = await Promise.all([apiFetch("/user"), apiFetch("/user"), apiFetch("/user")]);
    expect(replies).toHaveLength(3);
    expect(server.refreshCalls).toBe(1);
    expect(server.userCalls.filter((auth) => auth === "Bearer new-1")).toHaveLength(3);
  });

  it("removes both tokens and tells the page when the refresh is refused", async () => {
    server.refreshAnswer = "refused";
    const announced = vi.fn();
    window.addEventListener(SESSION_EVENT, announced);
    const failure = await apiFetch("/user").catch((error: unknown) => error);
    window.removeEventListener(SESSION_EVENT, announced);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(403);
    expect([tokens.access(), tokens.refresh()]).toEqual([null, null]);
    expect(announced).toHaveBeenCalledTimes(1);
  });

  it("keeps both tokens when the refresh is throttled or the server fails", async () => {
    for (const answer of ["throttled", "fault"] as const) {
      server.refreshAnswer = answer;
      const failure = await apiFetch("/user").catch((error: unknown) => error);
      expect((failure as ApiError).status).toBe(403);
      expect([tokens.access(), tokens.refresh()]).toEqual(["old", "refresh-1"]);
    }
  });

  it("retries only once", async () => {
    server.alwaysExpired = true;
    await expect(apiFetch("/user")).rejects.toBeInstanceOf(ApiError);
    expect(server.refreshCalls).toBe(1);
    expect(server.userCalls).toHaveLength(2);
  });

  it("leaves other errors alone", async () => {
    tokens.set("new-1", "refresh-1");
    vi.mocked(fetch).mockResolvedValueOnce(json(404, { error: "Address Not Found" }));
    await expect(apiFetch("/user/direction/9", { method: "DELETE" })).rejects.toThrow("Address Not Found");
    expect(server.refreshCalls).toBe(0);
  });
});

import { vi } from "vitest";

/** A JSON reply as the server sends it. */
export const jsonReply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/**
 * A signed-in browser talking to a fake of the store's API: `answer` replies to each request, and every
 * request is recorded as "METHOD /path" in the returned list. Undone by vi.unstubAllGlobals().
 */
export function fakeSignedInApi(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  localStorage.setItem("access", "a");
  localStorage.setItem("refresh", "r");
  const requests: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      requests.push(`${init.method ?? "GET"} ${url}`);
      return answer(url, init);
    }),
  );
  return requests;
}

import type { RefreshReply } from "@voltio/domain/account";
import { noticeRoleChange, roleChangedTo } from "./role-change";
import { tokens } from "./tokens";

/** The typed fetch under every API call: JSON in and out, errors as ApiError with the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(
      typeof body === "object" && body && "error" in body
        ? errorText((body as { error: unknown }).error)
        : `HTTP ${status}`,
    );
  }
}

const errorText = (error: unknown) =>
  typeof error === "object" && error && "message" in error ? String(error.message) : String(error);

/** Fired when the stored tokens change under the page (a failed refresh cleared them): the session re-reads. */
export const SESSION_EVENT = "voltio:session";
const announceSessionChange = () => window.dispatchEvent(new Event(SESSION_EVENT));

interface Sent {
  response: Response;
  body: unknown;
  /** The access token the request carried, to tell whether another request already replaced it. */
  access: string | null;
}

async function send(path: string, init: RequestInit): Promise<Sent> {
  const headers = new Headers(init.headers);
  // JSON unless the caller says what it sends (a CSV file, a form's data).
  if (init.body !== undefined && !(init.body instanceof FormData) && !headers.has("content-type"))
    headers.set("content-type", "application/json");
  const access = tokens.access();
  if (access) headers.set("authorization", `Bearer ${access}`);
  const response = await fetch(`/api${path}`, { ...init, headers });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { response, body, access };
}

/** docs/product-rules.md §10.7: a 403 whose error name is TokenExpiredError means the access token ran out. */
const accessExpired = ({ response, body }: Sent) =>
  response.status === 403 &&
  typeof body === "object" &&
  body !== null &&
  (body as { error?: { name?: unknown } }).error?.name === "TokenExpiredError";

export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  let sent = await send(path, init);
  // Refresh once and retry the same request once; a second expiry is the caller's error.
  if (accessExpired(sent) && (await refreshAccessToken(sent.access))) sent = await send(path, init);
  // The reply (a refusal too) says an admin changed the user's role: told, not logged out (role-change.ts).
  const newRole = roleChangedTo(sent.response);
  if (newRole)
    void noticeRoleChange(newRole, sent.access, {
      renewToken: refreshAccessToken,
      sessionChanged: announceSessionChange,
    });
  if (!sent.response.ok) throw new ApiError(sent.response.status, sent.body);
  return sent.body as T;
}

let refreshing: Promise<boolean> | null = null;

/**
 * Posts the refresh token for a new access token and stores only that (docs/product-rules.md §8, token refresh): the
 * refresh token stays the same for the whole login. Requests that expire together share one refresh. If the
 * refresh is refused, both tokens are removed and the shopper is a guest.
 */
export function refreshAccessToken(expiredAccess: string | null): Promise<boolean> {
  refreshing ??= refreshOnce(expiredAccess).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function refreshOnce(expiredAccess: string | null): Promise<boolean> {
  const refresh = tokens.refresh();
  if (!refresh) {
    tokens.clear();
    announceSessionChange();
    return false;
  }
  // Another tab already stored a newer access token of the same login.
  const current = tokens.access();
  if (current && current !== expiredAccess) return true;
  let response: Response;
  try {
    response = await fetch("/api/user/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: refresh }),
    });
  } catch {
    // Offline: the login may still be good, so the tokens stay for the next try.
    return false;
  }
  // Throttled or a server fault: the login may still be good, too.
  if (response.status === 429 || response.status >= 500) return false;
  if (!response.ok) {
    tokens.clear();
    announceSessionChange();
    return false;
  }
  const body = (await response.json()) as RefreshReply;
  tokens.set(body.token);
  return true;
}

/** Builds a query string, leaving out empty values. */
export function toQuery(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

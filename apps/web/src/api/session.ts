import { useEffect, useSyncExternalStore } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type {
  AuthOptions,
  EmailCheckReply,
  LoginReply,
  RegisterInput,
  SessionReply,
  User,
} from "@voltio/domain/account";
import type { SecondFactorRequiredReply } from "@voltio/domain/second-factor";
import { bootReply } from "./boot-data";
import { ApiError, apiFetch, SESSION_EVENT } from "./client";
import { mergeGuestLists } from "./login-merge";
import { SESSION_KEY } from "./session-key";
import { tokens } from "./tokens";

/**
 * The signed-in shopper (GET /user) and the calls that start and end a login. Every query about the user
 * lives under the ["user"] key, so signing in or out refreshes all of them at once.
 */
export { SESSION_KEY };
const USER_KEY = [...SESSION_KEY, "me"] as const;

/** While a tab is visible its login is kept alive; a login left alone ends after the server's idle time. */
const KEEP_ALIVE_MS = 10 * 60_000;

async function fetchMe(signal?: AbortSignal): Promise<User | null> {
  if (!tokens.present()) return null;
  try {
    return await apiFetch<User>("/user", { signal });
  } catch (error) {
    // A token the server no longer accepts (account deleted, secret changed): the shopper is a guest.
    if (error instanceof ApiError && error.status === 401) {
      tokens.clear();
      return null;
    }
    throw error;
  }
}

const noSubscription = () => () => {};

/** The current user, or null for a guest. `pending` is true while a stored login is being checked. */
export function useSession() {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: USER_KEY,
    queryFn: ({ signal }) => fetchMe(signal),
    staleTime: 60_000,
    refetchInterval: KEEP_ALIVE_MS,
    refetchIntervalInBackground: false,
    retry: (count, error) => !(error instanceof ApiError) && count < 2,
  });
  useEffect(() => {
    const reread = () => void client.invalidateQueries({ queryKey: SESSION_KEY });
    // Another tab logged in or out, or a refresh failed and cleared the tokens.
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === "access" || event.key === "refresh") reread();
    };
    window.addEventListener(SESSION_EVENT, reread);
    window.addEventListener("storage", onStorage);
    return () => {
      window.removeEventListener(SESSION_EVENT, reread);
      window.removeEventListener("storage", onStorage);
    };
  }, [client]);
  // The server renders every page for a guest: the stored login counts from the first client render on.
  const loginStored = useSyncExternalStore(noSubscription, tokens.present, () => false);
  // So does the user: a lazy section (components/lazy-section.tsx) hydrates when its code arrives, maybe
  // after the user has loaded, and its hydration must render what the server did.
  const hydrating = useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
  const user = hydrating ? null : (query.data ?? null);
  return {
    user,
    pending: query.isPending && loginStored,
    isAdmin: user?.rol === "admin",
  };
}

/** The answer of PUT /user, POST and DELETE /user/direction is the whole user: keep it as the session. */
export function storeUser(client: QueryClient, user: User) {
  client.setQueryData(USER_KEY, user);
}

export function useAuthOptions() {
  return useQuery({
    queryKey: ["auth-options"],
    queryFn: () => apiFetch<AuthOptions>("/auth/options"),
    // The login page's HTML carries it: Google's button is drawn with the page, not after a request.
    ...bootReply<AuthOptions>("/auth/options"),
    staleTime: Infinity,
  });
}

export const checkEmail = (email: string) =>
  apiFetch<EmailCheckReply>("/user/email", { method: "POST", body: JSON.stringify({ email }) });

export const register = (input: RegisterInput) =>
  apiFetch<{ msg: string; id: number }>("/user", { method: "POST", body: JSON.stringify(input) });

/** Every user query but the session itself: lists, orders… of whoever was signed in before. */
const otherUserQueries = {
  queryKey: SESSION_KEY,
  predicate: (query: { queryKey: readonly unknown[] }) => query.queryKey[1] !== "me",
};

/**
 * Stores the tokens and loads the user: from here on the shopper is signed in. Exported for the sign-ins that
 * end with tokens by other means (the second step, a passkey), which load with their screens.
 */
export async function signInWithTokens(client: QueryClient, reply: SessionReply): Promise<User | null> {
  tokens.set(reply.accessToken, reply.refreshToken);
  const user = await fetchMe();
  // docs/product-rules.md §8 Login: the guest's cart and wishlist become the shopper's orders (admins have no lists).
  if (user && user.rol !== "admin") await mergeGuestLists();
  // Set in place, so every mounted reader (the header's menu) switches at once.
  client.setQueryData(USER_KEY, user);
  await client.resetQueries(otherUserQueries);
  return user;
}

/** The login's second step: the token to send back with the code, and the factors the account has. */
export type PendingSecondFactor = SecondFactorRequiredReply["secondFactor"];
/** Signed in (the user), or asked for a second factor first (no session yet). */
export type SignInResult = { user: User | null } | { secondFactor: PendingSecondFactor };

const signInWith = async (client: QueryClient, reply: LoginReply): Promise<SignInResult> =>
  "secondFactor" in reply
    ? { secondFactor: reply.secondFactor }
    : { user: await signInWithTokens(client, reply) };

export async function login(client: QueryClient, email: string, password: string) {
  const reply = await apiFetch<LoginReply>("/user/login", {
    method: "POST",
    body: JSON.stringify({ email, password }),
  });
  return signInWith(client, reply);
}

export async function googleLogin(client: QueryClient, tokenId: string) {
  const reply = await apiFetch<LoginReply>("/google/login", {
    method: "POST",
    body: JSON.stringify({ tokenId }),
  });
  return signInWith(client, reply);
}

/** Display preferences survive a logout; everything else in browser storage is the shopper's and goes. */
const KEPT_ON_LOGOUT = ["theme", "lang"];

/**
 * docs/product-rules.md §8, logout: the server invalidates the refresh token, the tokens and the browser storage are
 * cleared (but the theme and language choices), and the shopper's queries are reset.
 */
export async function logout(client: QueryClient) {
  const refresh = tokens.refresh();
  if (refresh) {
    try {
      await apiFetch("/user/token", { method: "DELETE", body: JSON.stringify({ token: refresh }) });
    } catch (error) {
      console.error("The server could not end the login", error);
    }
  }
  const kept = KEPT_ON_LOGOUT.map((key) => [key, localStorage.getItem(key)] as const);
  localStorage.clear();
  sessionStorage.clear();
  for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
  client.setQueryData(USER_KEY, null);
  await client.resetQueries(otherUserQueries);
}

import { useQuery, type QueryClient } from "@tanstack/react-query";
import type { SessionReply } from "@voltio/domain/account";
import { SECOND_FACTOR_REQUIRED, type SecondFactorStatus } from "@voltio/domain/second-factor";
import { ApiError, apiFetch } from "./client";
import { signInWithTokens } from "./session";
import { SESSION_KEY } from "./session-key";

/**
 * Two-step sign-in's status, read by the profile's section and by the back office's gate: under the
 * session's key, so signing in or out reads it again.
 */
export const SECOND_FACTOR_KEY = [...SESSION_KEY, "second-factor"] as const;

export const useSecondFactorStatus = () =>
  useQuery({
    queryKey: SECOND_FACTOR_KEY,
    queryFn: () => apiFetch<SecondFactorStatus>("/user/second-factor"),
  });

/** An admin route's refusal for a session without a second factor. */
export const isSecondFactorRefusal = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 403 &&
  (error.body as { reason?: unknown } | undefined)?.reason === SECOND_FACTOR_REQUIRED;

/** The notice (route state) the back office sends the admin to the profile with. */
export const SET_UP_SECOND_FACTOR = "set-up-second-factor";

/** POST /user/login/second-factor: the code (or recovery code) for the step the login opened. */
export async function finishSecondFactor(client: QueryClient, token: string, code: string) {
  const reply = await apiFetch<SessionReply>("/user/login/second-factor", {
    method: "POST",
    body: JSON.stringify({ token, code }),
  });
  return signInWithTokens(client, reply);
}

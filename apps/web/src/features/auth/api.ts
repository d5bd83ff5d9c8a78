import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RegisterInput } from "@voltio/domain/account";
import { checkEmail, googleLogin, login, register } from "@/api/session";

/*
 * The login screens' calls. Signing in stores the tokens, loads the user and resets the previous shopper's
 * queries (session.ts: startSession); the e-mail check and signing up change nothing cached.
 */

/** POST /user/email: whether the e-mail has an account, and whether it is a Google one. */
export const useCheckEmail = () => useMutation({ mutationFn: checkEmail });

/** POST /user: a new account, not yet signed in. */
export const useRegister = () => useMutation({ mutationFn: (input: RegisterInput) => register(input) });

/** POST /user/login: the signed-in user (null if it could not be read). */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ email, password }: { email: string; password: string }) => login(client, email, password),
  });
}

/** POST /google/login with Google's credential: the signed-in user. */
export function useGoogleLogin() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (credential: string) => googleLogin(client, credential) });
}

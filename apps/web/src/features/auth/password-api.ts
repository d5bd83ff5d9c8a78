import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PasswordForgotInput, PasswordResetInput, PasswordResetReply } from "@voltio/domain/account";
import { apiFetch } from "@/api/client";
import { SESSION_KEY } from "@/api/session";
import { tokens } from "@/api/tokens";

/** "Forgot password?": the reply is the same whether or not the account exists. */
export function useAskForResetLink() {
  return useMutation({
    mutationFn: (input: PasswordForgotInput) =>
      apiFetch<{ msg: string }>("/user/password/forgot", { method: "POST", body: JSON.stringify(input) }),
  });
}

/**
 * Sets the new password with the link's token; every login of the account ends, so this browser's, if it
 * had one, is gone too.
 */
export function useResetPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordResetInput) =>
      apiFetch<PasswordResetReply>("/user/password/reset", { method: "POST", body: JSON.stringify(input) }),
    onSuccess: async () => {
      if (!tokens.present()) return;
      tokens.clear();
      await client.resetQueries({ queryKey: SESSION_KEY });
    },
  });
}

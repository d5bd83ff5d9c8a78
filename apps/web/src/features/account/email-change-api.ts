import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { EmailLinkInput, EmailLinkReply } from "@voltio/domain/account";
import { apiFetch } from "@/api/client";
import { SESSION_KEY } from "@/api/session";
import { tokens } from "@/api/tokens";

/** The new address's link: a signed-in tab then reloads the user, whose e-mail just changed. */
export function useConfirmEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: EmailLinkInput) =>
      apiFetch<EmailLinkReply>("/user/email/confirm", { method: "POST", body: JSON.stringify(input) }),
    onSuccess: async () => {
      if (tokens.present()) await client.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
}

/** The old address's "this wasn't me": every login of the account ends, this browser's too if it had one. */
export function useRevertEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: EmailLinkInput) =>
      apiFetch<EmailLinkReply>("/user/email/revert", { method: "POST", body: JSON.stringify(input) }),
    onSuccess: async () => {
      if (!tokens.present()) return;
      tokens.clear();
      await client.resetQueries({ queryKey: SESSION_KEY });
    },
  });
}

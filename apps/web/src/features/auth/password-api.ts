import type { PasswordForgotInput, PasswordResetInput, PasswordResetReply } from "@voltio/domain/account";
import { apiFetch } from "@/api/client";

/** "Forgot password?" (issue 23 point 5): the reply is the same whether or not the account exists. */
export const askForResetLink = (input: PasswordForgotInput) =>
  apiFetch<{ msg: string }>("/user/password/forgot", { method: "POST", body: JSON.stringify(input) });

/** Sets the new password with the link's token; every login of the account ends. */
export const resetPassword = (input: PasswordResetInput) =>
  apiFetch<PasswordResetReply>("/user/password/reset", { method: "POST", body: JSON.stringify(input) });

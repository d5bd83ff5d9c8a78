import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RecoveryCodesReply, TotpEnrolmentReply } from "@voltio/domain/second-factor";
import { apiFetch } from "@/api/client";
import { SECOND_FACTOR_KEY } from "@/api/second-factor";

export { SET_UP_SECOND_FACTOR, useSecondFactorStatus } from "@/api/second-factor";

/** Two-step sign-in's changes (server: modules/auth/second-factor/routes.ts). */
const post = <T>(path: string, method: "POST" | "DELETE", body?: object) =>
  apiFetch<T>(path, { method, body: body === undefined ? undefined : JSON.stringify(body) });

/** Each change re-reads the status; turning the app on also changes what the back office allows. */
function useChange<T, A>(call: (argument: A) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: SECOND_FACTOR_KEY }),
  });
}

export const useStartTotp = () =>
  useChange(() => post<TotpEnrolmentReply>("/user/second-factor/totp", "POST"));
export const useConfirmTotp = () =>
  useChange((code: string) => post<RecoveryCodesReply>("/user/second-factor/totp/confirm", "POST", { code }));
export const useDisableTotp = () =>
  useChange((code: string) => post<{ msg: string }>("/user/second-factor/totp", "DELETE", { code }));
export const useRegenerateRecoveryCodes = () =>
  useChange((code: string) =>
    post<RecoveryCodesReply>("/user/second-factor/recovery-codes", "POST", { code }),
  );

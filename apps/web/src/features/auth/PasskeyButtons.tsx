import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { Button } from "@/components/ui/Button";
import { showToast } from "@/components/ui/toast";
import { failureText } from "@/components/form";
import { passkeyCancelled, passkeySecondFactor, signInWithPasskey, usePasskeySupport } from "@/api/passkeys";
import type { SecondFactorSlotProps } from "./SecondFactorStep";

/** The toast for a passkey that didn't sign in: closed prompt, refused key, or anything else. */
function useFailureToast() {
  const { t } = useTranslation();
  return (error: unknown) => {
    if (passkeyCancelled(error)) showToast(t("passkeyLogin.cancelled"), "error");
    else if (error instanceof ApiError && error.status === 401)
      showToast(t("passkeyLogin.notAccepted"), "error");
    else showToast(failureText(t, error), "error");
  };
}

/**
 * "Sign in with a passkey" under the e-mail step: no e-mail needed, the browser offers the store's passkeys
 * it holds. Not shown where the browser can't use passkeys.
 */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: (firstName: string | undefined) => void }) {
  const { t } = useTranslation();
  const supported = usePasskeySupport();
  const client = useQueryClient();
  const failed = useFailureToast();
  const [busy, setBusy] = useState(false);
  if (!supported) return null;
  const start = async () => {
    setBusy(true);
    try {
      const me = await signInWithPasskey(client);
      onSignedIn(me?.firstName);
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" className="mt-4 w-full" disabled={busy} onClick={() => void start()}>
      <KeyRound aria-hidden className="size-5" />
      {t("passkeyLogin.signIn")}
    </Button>
  );
}

/** "Use a passkey" in the login's second step, for an account that has one. */
export function PasskeySecondFactor({ token, onSignedIn, onRestart }: SecondFactorSlotProps) {
  const { t } = useTranslation();
  const supported = usePasskeySupport();
  const client = useQueryClient();
  const failed = useFailureToast();
  const [busy, setBusy] = useState(false);
  if (!supported) return null;
  const start = async () => {
    setBusy(true);
    try {
      const me = await passkeySecondFactor(client, token);
      onSignedIn(me?.firstName);
    } catch (error) {
      const body = error instanceof ApiError ? (error.body as { secondFactorGone?: unknown }) : undefined;
      if (body?.secondFactorGone) {
        showToast(t("twoStep.expired"), "error");
        onRestart();
      } else failed(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" className="w-full" disabled={busy} onClick={() => void start()}>
      <KeyRound aria-hidden className="size-5" />
      {t("passkeyLogin.secondStep")}
    </Button>
  );
}

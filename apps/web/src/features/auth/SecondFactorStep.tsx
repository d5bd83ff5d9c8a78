import { useId, useState, type FormEvent, type ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { finishSecondFactor } from "@/api/second-factor";
import type { PendingSecondFactor } from "@/api/session";
import { TextField } from "@/components/TextField";
import { Button } from "@/components/ui/Button";
import { showToast } from "@/components/ui/toast";
import { failureText, linkButtonClass } from "@/components/form";

/** What a sign-in method other than a code (a passkey) gets to finish the same step. */
export interface SecondFactorSlotProps {
  /** The step's token, sent back with the proof. */
  token: string;
  onSignedIn: (firstName: string | undefined) => void;
  /** The step is gone (expired, used, closed): back to the password. */
  onRestart: () => void;
}

/**
 * The login's second step, after a right password (or Google) for an account with a second factor: a
 * 6-digit code from the authenticator app, or a recovery code. `passkey` renders the passkey option where
 * the account has one. Five wrong codes or five minutes end the step: the password is asked again.
 */
export function SecondFactorStep({
  pending,
  onSignedIn,
  onRestart,
  passkey,
}: {
  pending: PendingSecondFactor;
  onSignedIn: (firstName: string | undefined) => void;
  onRestart: () => void;
  passkey?: (props: SecondFactorSlotProps) => ReactNode;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const headingId = useId();
  const hasCode = pending.methods.includes("totp");
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const finish = useMutation({
    mutationFn: (typed: string) => finishSecondFactor(client, pending.token, typed),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    const valid = recovery ? typed.length > 0 : /^\d{6}$/.test(typed.replace(/\s/g, ""));
    if (!valid) {
      setError(recovery ? t("twoStep.recoveryRequired") : t("twoStep.codeFormat"));
      return;
    }
    try {
      const me = await finish.mutateAsync(typed);
      onSignedIn(me?.firstName);
    } catch (failure) {
      const body = failure instanceof ApiError ? (failure.body as { secondFactorGone?: unknown }) : undefined;
      if (body?.secondFactorGone) {
        showToast(t("twoStep.expired"), "error");
        onRestart();
      } else if (failure instanceof ApiError && failure.status === 401) {
        setCode("");
        setError(t("twoStep.incorrect"));
      } else {
        showToast(failureText(t, failure), "error");
      }
    }
  };

  const switchMethod = () => {
    setRecovery((shown) => !shown);
    setCode("");
    setError(undefined);
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h2 id={headingId} className="text-lg font-semibold text-ink">
        {t("twoStep.title")}
      </h2>
      {hasCode && (
        <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-muted">
            {recovery ? t("twoStep.recoveryPrompt") : t("twoStep.codePrompt")}
          </p>
          <TextField
            key={recovery ? "recovery" : "code"}
            label={recovery ? t("twoStep.recoveryCode") : t("twoStep.code")}
            name={recovery ? "recoveryCode" : "code"}
            value={code}
            onChange={(event) => {
              setCode(event.target.value);
              setError(undefined);
            }}
            error={error}
            showRule
            autoFocus
            autoComplete={recovery ? "off" : "one-time-code"}
            inputMode={recovery ? "text" : "numeric"}
            pattern={recovery ? undefined : "[0-9]*"}
            maxLength={recovery ? 40 : 6}
            spellCheck={false}
            autoCapitalize="off"
          />
          <Button type="submit" disabled={finish.isPending} className="w-full">
            {t("twoStep.verify")}
          </Button>
          <button type="button" onClick={switchMethod} className={`${linkButtonClass} self-center`}>
            {recovery ? t("twoStep.useApp") : t("twoStep.useRecovery")}
          </button>
        </form>
      )}
      {pending.methods.includes("passkey") && passkey?.({ token: pending.token, onSignedIn, onRestart })}
      <button type="button" onClick={onRestart} className={`${linkButtonClass} self-center`}>
        {t("twoStep.startOver")}
      </button>
    </section>
  );
}

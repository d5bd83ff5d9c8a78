import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import type { Passkey } from "@voltio/domain/passkeys";
import { useTranslation } from "@/i18n";
import { ApiError, apiFetch } from "@/api/client";
import { SESSION_KEY, useSession } from "@/api/session";
import { failureText } from "@/components/form";
import { LazyConfirmDialog } from "@/components/LazyConfirmDialog";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { TextField } from "@/components/TextField";
import { showToast } from "@/components/ui/toast";
import { createPasskey, passkeyCancelled, usePasskeySupport } from "@/api/passkeys";
import { localDateTime } from "./date-format";

/** Under the user's key: signing in or out re-reads it with everything else about the user. */
const PASSKEYS_KEY = [...SESSION_KEY, "passkeys"] as const;

/** The server refused the owner's proof (a wrong password, or a Google sign-in too long ago). */
const proofRefused = (body: unknown) =>
  (body as { details?: { field?: unknown }[] } | undefined)?.details?.some(
    (detail) => detail.field === "currentPassword",
  );

/** The browser refuses to make a second passkey on a device that holds one for this account. */
const alreadyOnDevice = (error: unknown) => error instanceof Error && error.name === "InvalidStateError";

/**
 * "Passkeys" on the profile: each passkey with its name, when it was added and last used, "Remove" (asked
 * first), and "Add a passkey" where the browser can make one. The account's e-mail hears of each change.
 */
export function PasskeysCard() {
  const { t, language } = useTranslation();
  const client = useQueryClient();
  const supported = usePasskeySupport();
  const heading = useRef<HTMLHeadingElement>(null);
  const [removing, setRemoving] = useState<Passkey>();
  const [removed, setRemoved] = useState(false);
  const hasPassword = useSession().user?.googleUser === false;
  // An account with a password types it before the browser makes the passkey.
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string>();
  // The button that opened the question went with its row, so the dialog has nowhere to give the focus
  // back: it stays in the section instead of falling to the page. Queued after the dialog's own focus
  // handling, which its unmounting queued first.
  useEffect(() => {
    if (!removed || removing) return;
    const later = setTimeout(() => {
      heading.current?.focus();
      setRemoved(false);
    });
    return () => clearTimeout(later);
  }, [removed, removing]);
  const passkeys = useQuery({
    queryKey: PASSKEYS_KEY,
    queryFn: ({ signal }) => apiFetch<Passkey[]>("/user/passkeys", { signal }),
  });
  const refresh = () => client.invalidateQueries({ queryKey: PASSKEYS_KEY });
  const add = useMutation({
    mutationFn: (currentPassword?: string) => createPasskey(currentPassword),
    onSuccess: () => {
      setAsking(false);
      setPassword("");
      showToast(t("passkeys.added"));
      return refresh();
    },
    onError: (error) => {
      const field = error instanceof ApiError ? proofRefused(error.body) : undefined;
      if (field && hasPassword) {
        setPassword("");
        setPasswordError(t("auth.passwordIncorrect"));
      } else if (field) showToast(t("passkeys.signInAgain"), "error");
      else if (passkeyCancelled(error)) showToast(t("passkeys.cancelled"), "error");
      else if (alreadyOnDevice(error) || (error instanceof ApiError && error.status === 409))
        showToast(t("passkeys.alreadyAdded"), "error");
      else showToast(failureText(t, error), "error");
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => apiFetch(`/user/passkeys/${id}`, { method: "DELETE" }),
    onSuccess: async () => {
      // The list first, so the dialog closes on the list without the row.
      await refresh();
      setRemoving(undefined);
      setRemoved(true);
      showToast(t("passkeys.removed"));
    },
    onError: (error) => showToast(failureText(t, error), "error"),
  });

  return (
    <Card as="section" size="lg" raised aria-labelledby="passkeys" className="p-6">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <h2 id="passkeys" ref={heading} tabIndex={-1} className="text-lg font-semibold text-ink">
          {t("passkeys.title")}
        </h2>
        {supported && !asking && (
          <Button
            variant="secondary"
            size="md"
            disabled={add.isPending}
            onClick={() => (hasPassword ? setAsking(true) : add.mutate(undefined))}
          >
            <KeyRound aria-hidden className="size-4" />
            {add.isPending ? t("passkeys.adding") : t("passkeys.add")}
          </Button>
        )}
      </div>
      <p className="mb-4 text-sm text-muted">
        {t("passkeys.intro")} {!supported && t("passkeys.unsupported")}
      </p>
      {asking && (
        <form
          noValidate
          className="mb-4 flex flex-col gap-3 rounded-xl border border-line bg-surface p-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (!password) setPasswordError(t("accountRules.passwordRequired"));
            else add.mutate(password);
          }}
        >
          <p className="text-sm text-ink">{t("passkeys.passwordPrompt")}</p>
          <TextField
            label={t("passkeys.currentPassword")}
            type="password"
            name="currentPassword"
            autoComplete="current-password"
            autoFocus
            value={password}
            error={passwordError}
            onChange={(event) => {
              setPassword(event.target.value);
              setPasswordError(undefined);
            }}
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" size="md" disabled={add.isPending}>
              <KeyRound aria-hidden className="size-4" />
              {add.isPending ? t("passkeys.adding") : t("passkeys.continue")}
            </Button>
            <Button
              variant="secondary"
              size="md"
              onClick={() => {
                setAsking(false);
                setPassword("");
                setPasswordError(undefined);
              }}
            >
              {t("passkeys.cancel")}
            </Button>
          </div>
        </form>
      )}
      {passkeys.isPending ? (
        <p role="status" className="text-sm text-muted">
          {t("passkeys.loading")}
        </p>
      ) : passkeys.isError ? (
        <p role="alert" className="text-sm text-sale">
          {t("passkeys.failed")}
        </p>
      ) : passkeys.data.length === 0 ? (
        <p className="text-sm text-muted">{t("passkeys.empty")}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line">
          {passkeys.data.map((passkey) => (
            <li key={passkey.id} className="flex flex-wrap items-center gap-3 py-3">
              <KeyRound aria-hidden className="size-5 shrink-0 text-muted" />
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words text-ink">{passkey.name}</p>
                <p className="text-sm text-muted">
                  {t("passkeys.created", { date: localDateTime(passkey.createdAt, language) })}
                  {" · "}
                  {passkey.lastUsedAt
                    ? t("passkeys.lastUsed", { date: localDateTime(passkey.lastUsedAt, language) })
                    : t("passkeys.neverUsed")}
                </p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                disabled={remove.isPending}
                aria-label={t("passkeys.removeLabel", { name: passkey.name })}
                onClick={() => setRemoving(passkey)}
              >
                {t("passkeys.remove")}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {/* Mounted only while asking, so it is gone in the same render as the row it asked about. */}
      {removing && (
        <LazyConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open) setRemoving(undefined);
          }}
          title={t("passkeys.removeConfirm")}
          description={t("passkeys.removeDescription", { name: removing.name })}
          busy={remove.isPending}
          onAccept={() => remove.mutate(removing.id)}
        />
      )}
    </Card>
  );
}

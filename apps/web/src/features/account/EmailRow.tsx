import { useState } from "react";
import { useForm } from "react-hook-form";
import { MailCheck } from "lucide-react";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { emailChangeFormSchema, type User, type UserUpdateReply } from "@voltio/domain/account";
import { accountMessageKey } from "@voltio/domain/account-messages";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { useAuthOptions } from "@/api/session";
import { useUpdateUser } from "@/api/session-mutations";
import { TextField } from "@/components/TextField";
import { Button } from "@/components/ui/Button";
import { failureText } from "@/components/form";
import { showToast } from "@/components/ui/toast";
import { GoogleLogo } from "@/components/GoogleLogo";
import { requestGoogleCredential } from "@/components/google-sign-in";
import { EditButtons } from "./EditableField";

// A Google account proves itself with Google, not a password: its form checks the address only.
const GOOGLE_FORM = emailChangeFormSchema.partial({ currentPassword: true });
type Values = z.input<typeof GOOGLE_FORM>;
const INCORRECT = "The password is incorrect";

/**
 * The e-mail row of 'User Data'. The e-mail changes only once the link sent to the new address is opened,
 * and asking for it takes the current password (a Google account: signing in with Google again), so a
 * borrowed session can't move the account to another inbox. Until the link is opened the row says where it
 * went.
 */
export function EmailRow({ user }: { user: User }) {
  const { t } = useTranslation();
  const updateUser = useUpdateUser();
  const googleClientId = useAuthOptions().data?.googleClientId ?? null;
  const [editing, setEditing] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const google = user.googleUser;
  const form = useForm<Values>({
    resolver: zodResolver(google ? GOOGLE_FORM : emailChangeFormSchema),
    defaultValues: { email: user.email, currentPassword: "" },
    reValidateMode: "onSubmit",
    shouldFocusError: true,
  });
  const { errors, isSubmitting } = form.formState;

  const toggle = () => {
    setEditing((on) => !on);
    form.reset({ email: user.email, currentPassword: "" });
  };

  const send = async (values: Values, googleToken?: string) => {
    try {
      const reply = (await updateUser.mutateAsync(
        google ? { email: values.email, googleToken } : values,
      )) as UserUpdateReply;
      setSentTo(reply.pendingEmail ?? values.email);
      setEditing(false);
      form.reset({ email: user.email, currentPassword: "" });
    } catch (error) {
      const details = error instanceof ApiError ? error.body : undefined;
      const refused = (details as { details?: { field: string; reason: string }[] } | undefined)
        ?.details?.[0];
      if (error instanceof ApiError && error.status === 409) {
        form.setError("email", { type: "server", message: t("auth.emailExists") }, { shouldFocus: true });
      } else if (refused && (refused.field === "email" || refused.field === "currentPassword")) {
        const message = refused.reason === INCORRECT ? t("auth.passwordIncorrect") : refused.reason;
        form.setError(refused.field, { type: "server", message }, { shouldFocus: true });
      } else if (refused?.field === "googleToken") {
        showToast(t(`accountRules.${accountMessageKey(refused.reason) ?? "googleSignInRequired"}`), "error");
      } else {
        showToast(failureText(t, error), "error");
      }
    }
  };

  const submit = form.handleSubmit(async (values) => {
    if (!google) return send(values);
    let credential: string;
    try {
      // Google's own prompt: the token it hands back says who signed in, and when.
      credential = await requestGoogleCredential(googleClientId!);
    } catch {
      showToast(t("emailChange.googleFailed"), "error");
      return;
    }
    await send(values, credential);
  });

  // Without Google sign-in on this store, a Google account can't prove itself: its e-mail stays.
  const locked = google && !googleClientId;
  return (
    <div className="flex flex-col gap-2">
      <form
        onSubmit={(event) => (editing ? void submit(event) : event.preventDefault())}
        noValidate
        className="flex items-start gap-2"
      >
        <div className="grid min-w-0 flex-1 gap-3 sm:grid-cols-2">
          {editing ? (
            // Keyed apart: the shown address is a fixed value, the one being typed belongs to the form.
            <TextField
              key="editing"
              className={google ? "sm:col-span-2" : undefined}
              label={t("auth.email")}
              type="email"
              autoComplete="email"
              error={errors.email?.message}
              showRule
              {...form.register("email", { onChange: () => form.clearErrors("email") })}
            />
          ) : (
            <TextField
              key="shown"
              className="sm:col-span-2"
              label={t("auth.email")}
              type="email"
              value={user.email}
              disabled
              readOnly
            />
          )}
          {editing && !google && (
            <TextField
              label={t("emailChange.currentPassword")}
              type="password"
              autoComplete="current-password"
              error={errors.currentPassword?.message}
              showRule
              {...form.register("currentPassword", { onChange: () => form.clearErrors("currentPassword") })}
            />
          )}
          {editing && google && (
            <div className="flex flex-col gap-1.5 sm:col-span-2">
              <Button type="submit" variant="secondary" disabled={isSubmitting} className="self-start">
                <GoogleLogo />
                {t("emailChange.confirmWithGoogle")}
              </Button>
              <p className="text-xs text-muted">{t("emailChange.googleHint")}</p>
            </div>
          )}
        </div>
        {locked ? (
          <span className="self-end py-3 text-xs text-muted">{t("profile.googleEmail")}</span>
        ) : (
          <EditButtons label={t("auth.email")} editing={editing} onToggle={toggle} busy={isSubmitting} />
        )}
      </form>
      {/* Always there, so screen readers read the message when it appears in it. */}
      <div role="status">
        {sentTo && !editing && (
          <p className="flex gap-3 rounded-xl border border-line bg-surface px-4 py-3 text-sm text-ink">
            <MailCheck size={20} aria-hidden className="shrink-0 text-success" />
            <span className="min-w-0 wrap-anywhere">
              {t("emailChange.sent", { email: sentTo, current: user.email })}
            </span>
          </p>
        )}
      </div>
    </div>
  );
}

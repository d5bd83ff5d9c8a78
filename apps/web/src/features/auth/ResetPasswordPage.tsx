import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { passwordResetFormSchema, type PasswordResetForm } from "@voltio/domain/account";
import { ACCOUNT_MESSAGES } from "@voltio/domain/account-messages";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { TextField, ruleText } from "@/components/TextField";
import {
  PasswordStrengthMeter,
  passwordRefusal,
  preloadPasswordStrength,
} from "@/components/PasswordStrength";
import { Button } from "@/components/ui/Button";
import { showToast } from "@/components/ui/toast";
import { usePageTitle } from "@/components/page-title";
import { failureText, linkButtonClass } from "@/components/form";
import { AuthCard } from "./AuthCard";
import { useResetPassword } from "./password-api";
import { focusFirstInvalid, showServerErrors } from "./keep-typed";
import { PASSWORD_CHANGED } from "./login-notice";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * /password/reset?token=…: the e-mail's link. A new password typed twice, by the same
 * rule and messages as registration; done, the login page says so. A used, expired or broken link says
 * which, with a way to ask for a new one.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("passwordReset.resetTitle") }));
  const navigate = useNavigate();
  const resetPassword = useResetPassword();
  const token = useSearchParams()[0].get("token")?.trim() ?? "";
  const [linkProblem, setLinkProblem] = useState<string | null>(
    TOKEN.test(token) ? null : ACCOUNT_MESSAGES.resetLinkInvalid,
  );
  const form = useForm<PasswordResetForm>({
    resolver: zodResolver(passwordResetFormSchema),
    defaultValues: { password: "", confirm: "" },
    reValidateMode: "onSubmit",
  });
  const { errors, isSubmitting } = form.formState;
  const password = useWatch({ control: form.control, name: "password" });
  const field = (name: keyof PasswordResetForm) =>
    form.register(name, { onChange: () => form.clearErrors(name) });

  const submit = form.handleSubmit(async ({ password }) => {
    // The account's name and e-mail are unknown here: the server judges the password against them too.
    const refusal = await passwordRefusal(password, {});
    if (refusal) {
      form.setError("password", { type: "validate", message: refusal });
      form.setFocus("password");
      return;
    }
    try {
      const { email } = await resetPassword.mutateAsync({ token, password });
      // The e-mail (not the password) rides in the history state, for the login form.
      void navigate("/login", { replace: true, state: { notice: PASSWORD_CHANGED, email } });
    } catch (error) {
      const details = error instanceof ApiError ? error.body : undefined;
      const tokenProblem = (
        details as { details?: { field: string; reason: string }[] } | undefined
      )?.details?.find((detail) => detail.field === "token");
      if (tokenProblem) setLinkProblem(tokenProblem.reason);
      else if (!showServerErrors(form, details, ["password"])) showToast(failureText(t, error), "error");
    }
  }, focusFirstInvalid(form));

  return (
    <AuthCard title={t("passwordReset.resetTitle")}>
      {linkProblem ? (
        <div className="flex flex-col items-center gap-4 text-center">
          <p role="alert" className="text-ink">
            {ruleText(t, linkProblem)}
          </p>
          <Link to="/password/forgot" className={linkButtonClass}>
            {t("passwordReset.askAgain")}
          </Link>
        </div>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
          <div>
            <TextField
              label={t("passwordReset.newPassword")}
              type="password"
              autoComplete="new-password"
              autoFocus
              placeholder={t("accountRules.passwordTooShort")}
              error={errors.password?.message}
              showRule
              onFocus={preloadPasswordStrength}
              {...field("password")}
            />
            <PasswordStrengthMeter password={password} owner={{}} />
          </div>
          <TextField
            label={t("passwordReset.confirmPassword")}
            type="password"
            autoComplete="new-password"
            error={errors.confirm?.message}
            showRule
            {...field("confirm")}
          />
          <Button type="submit" disabled={isSubmitting} className="w-full">
            {t("passwordReset.save")}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

export default ResetPasswordPage;

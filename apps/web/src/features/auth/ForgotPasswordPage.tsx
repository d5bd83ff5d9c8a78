import { useState } from "react";
import { Link, useLocation } from "react-router";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { passwordForgotSchema, type PasswordForgotInput } from "@voltio/domain/account";
import { useTranslation } from "@/i18n";
import { EmailField } from "./EmailField";
import { ApiError } from "@/api/client";
import { Button } from "@/components/ui/Button";
import { showToast } from "@/components/ui/toast";
import { usePageTitle } from "@/components/page-title";
import { failureText, linkButtonClass } from "@/components/form";
import { AuthCard, SuccessNote } from "./AuthCard";
import { useAskForResetLink } from "./password-api";
import { focusFirstInvalid, showServerErrors } from "./keep-typed";

/**
 * /password/forgot: the account's e-mail, then the same neutral message whether or not
 * it has an account. The login form passes the e-mail it had (router state, never the URL).
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("passwordReset.forgotTitle") }));
  const given = (useLocation().state as { email?: unknown } | null)?.email;
  const [sent, setSent] = useState(false);
  const askForResetLink = useAskForResetLink();
  const form = useForm<PasswordForgotInput>({
    resolver: zodResolver(passwordForgotSchema),
    defaultValues: { email: typeof given === "string" ? given : "" },
    reValidateMode: "onSubmit",
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      await askForResetLink.mutateAsync(values);
      setSent(true);
    } catch (error) {
      if (!(error instanceof ApiError && showServerErrors(form, error.body, ["email"])))
        showToast(failureText(t, error), "error");
    }
  }, focusFirstInvalid(form));

  return (
    <AuthCard title={t("passwordReset.forgotTitle")}>
      <SuccessNote>
        {sent && (
          <>
            {t("passwordReset.sent")} {t("passwordReset.sentHint")}
          </>
        )}
      </SuccessNote>
      {!sent && (
        <>
          <p className="mb-5 text-center text-muted">{t("passwordReset.forgotPrompt")}</p>
          <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
            <EmailField
              error={errors.email?.message}
              {...form.register("email", { onChange: () => form.clearErrors("email") })}
            />
            <Button type="submit" disabled={isSubmitting} className="w-full">
              {t("passwordReset.send")}
            </Button>
          </form>
        </>
      )}
      <div className="mt-4 text-center">
        <Link to="/login" className={linkButtonClass}>
          {t("passwordReset.backToLogin")}
        </Link>
      </div>
    </AuthCard>
  );
}

export default ForgotPasswordPage;

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "@/i18n";
import { EmailField } from "./EmailField";
import { ArrowRight } from "lucide-react";
import { emailCheckSchema, type EmailCheckInput } from "@voltio/domain/account";
import { Button } from "@/components/ui/Button";
import { showToast } from "@/components/ui/toast";
import { GoogleLogo } from "./GoogleLogo";
import { failureText } from "@/components/form";
import { focusFirstInvalid } from "./keep-typed";

/** Step 1: 'Put you mail to register or login', and 'Login with Google' when the store offers it. */
export function EmailStep({
  onChecked,
  google,
}: {
  onChecked: (email: string) => Promise<void>;
  google: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const form = useForm<EmailCheckInput>({
    resolver: zodResolver(emailCheckSchema),
    defaultValues: { email: "" },
    reValidateMode: "onSubmit",
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email }) => {
    try {
      await onChecked(email);
    } catch (error) {
      showToast(failureText(t, error), "error");
    }
  }, focusFirstInvalid(form));

  return (
    <>
      <p className="mb-5 text-center text-muted">{t("auth.emailPrompt")}</p>
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
        <EmailField
          error={errors.email?.message}
          {...form.register("email", { onChange: () => form.clearErrors("email") })}
        />
        <Button type="submit" disabled={isSubmitting} className="w-full">
          {t("auth.continue")}
          <ArrowRight size={18} aria-hidden />
        </Button>
      </form>
      {google && (
        <>
          <div className="my-5 flex items-center gap-3 text-xs tracking-wide text-muted uppercase">
            <span className="h-px flex-1 bg-line" />
            {t("auth.or")}
            <span className="h-px flex-1 bg-line" />
          </div>
          <Button variant="secondary" onClick={google} className="w-full">
            <GoogleLogo />
            {t("auth.google")}
          </Button>
        </>
      )}
    </>
  );
}

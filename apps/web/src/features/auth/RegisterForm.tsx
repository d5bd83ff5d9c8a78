import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "@/i18n";
import { registerSchema, type RegisterInput } from "@voltio/domain/account";
import { ApiError } from "@/api/client";
import { register as registerAccount } from "@/api/session";
import { TextField } from "@/components/TextField";
import { Button } from "@/components/ui/Button";
import { showToast } from "@/components/ui/toast";
import { applyServerErrors, clearOnInvalid, failureText, linkButtonClass } from "@/components/form";

/** The Register form (SPEC.md §5). After registering, the page flips to the Login form. */
export function RegisterForm({
  email,
  onRegistered,
  onOtherEmail,
}: {
  email: string;
  onRegistered: (email: string) => void;
  onOtherEmail: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<RegisterInput>({
    resolver: zodResolver(registerSchema),
    defaultValues: { firstName: "", lastName: "", email, password: "" },
    reValidateMode: "onSubmit",
  });
  const { errors, isSubmitting } = form.formState;
  const field = (name: keyof RegisterInput) =>
    form.register(name, { onChange: () => form.clearErrors(name) });

  const submit = form.handleSubmit(async (values) => {
    try {
      await registerAccount(values);
      showToast(t("auth.registered"));
      onRegistered(values.email);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) showToast(t("auth.emailExists"), "error");
      else if (!(error instanceof ApiError && applyServerErrors(form, error.body)))
        showToast(failureText(t, error), "error");
    }
  }, clearOnInvalid(form));

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
      <TextField
        label={t("auth.firstName")}
        autoComplete="given-name"
        autoFocus
        error={errors.firstName?.message}
        {...field("firstName")}
      />
      <TextField
        label={t("auth.lastName")}
        autoComplete="family-name"
        error={errors.lastName?.message}
        {...field("lastName")}
      />
      <TextField
        label={t("auth.email")}
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...field("email")}
      />
      <TextField
        label={t("auth.password")}
        type="password"
        autoComplete="new-password"
        placeholder={t("accountRules.passwordTooShort")}
        error={errors.password?.message}
        {...field("password")}
      />
      <Button type="submit" disabled={isSubmitting} className="w-full">
        {t("auth.registerButton")}
      </Button>
      <button type="button" onClick={onOtherEmail} className={`${linkButtonClass} self-center`}>
        {t("auth.otherEmail")}
      </button>
    </form>
  );
}

import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "@/i18n";
import { registerSchema, type RegisterInput } from "@voltio/domain/account";
import { ApiError } from "@/api/client";
import { TextField } from "@/components/TextField";
import {
  PasswordStrengthMeter,
  passwordRefusal,
  preloadPasswordStrength,
} from "@/components/PasswordStrength";
import { Button } from "@/components/ui/Button";
import { showToast } from "@/components/ui/toast";
import { failureText, linkButtonClass } from "@/components/form";
import { useRegister } from "./api";
import { focusFirstInvalid, showServerErrors } from "./keep-typed";

/**
 * The Register form (docs/product-rules.md §9). A refused box keeps what was typed, with the rule under it. After
 * registering, the page flips to the Login form with the e-mail and password in.
 */
export function RegisterForm({
  email,
  onRegistered,
  onOtherEmail,
}: {
  email: string;
  onRegistered: (email: string, password: string) => void;
  onOtherEmail: () => void;
}) {
  const { t } = useTranslation();
  const registerAccount = useRegister();
  const form = useForm<RegisterInput>({
    resolver: zodResolver(registerSchema),
    defaultValues: { firstName: "", lastName: "", email, password: "" },
    reValidateMode: "onSubmit",
  });
  const { errors, isSubmitting } = form.formState;
  const [firstName, lastName, typedEmail, password] = useWatch({
    control: form.control,
    name: ["firstName", "lastName", "email", "password"],
  });
  const field = (name: keyof RegisterInput) => ({
    error: errors[name]?.message,
    showRule: true,
    ...form.register(name, { onChange: () => form.clearErrors(name) }),
  });

  const submit = form.handleSubmit(async (values) => {
    const refusal = await passwordRefusal(values.password, values);
    if (refusal) {
      form.setError("password", { type: "validate", message: refusal });
      form.setFocus("password");
      return;
    }
    try {
      await registerAccount.mutateAsync(values);
      showToast(t("auth.registered"));
      onRegistered(values.email, values.password);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        showToast(t("auth.emailExists"), "error");
        form.setError("email", { type: "server", message: t("auth.emailExists") });
        form.setFocus("email");
      } else if (!(
        error instanceof ApiError &&
        showServerErrors(form, error.body, ["firstName", "lastName", "email", "password"])
      ))
        showToast(failureText(t, error), "error");
    }
  }, focusFirstInvalid(form));

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
      <TextField label={t("auth.firstName")} autoComplete="given-name" autoFocus {...field("firstName")} />
      <TextField label={t("auth.lastName")} autoComplete="family-name" {...field("lastName")} />
      <TextField label={t("auth.email")} type="email" autoComplete="email" {...field("email")} />
      <div>
        <TextField
          label={t("auth.password")}
          type="password"
          autoComplete="new-password"
          placeholder={t("accountRules.passwordTooShort")}
          onFocus={preloadPasswordStrength}
          {...field("password")}
        />
        <PasswordStrengthMeter password={password} owner={{ firstName, lastName, email: typedEmail }} />
      </div>
      <Button type="submit" disabled={isSubmitting} className="w-full">
        {t("auth.registerButton")}
      </Button>
      <button type="button" onClick={onOtherEmail} className={`${linkButtonClass} self-center`}>
        {t("auth.otherEmail")}
      </button>
    </form>
  );
}

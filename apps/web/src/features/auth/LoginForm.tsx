import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "@/i18n";
import { useQueryClient } from "@tanstack/react-query";
import { loginSchema, type LoginInput } from "@voltio/domain/account";
import { ApiError } from "@/api/client";
import { login } from "@/api/session";
import { TextField } from "@/components/TextField";
import { Button } from "@/components/ui/Button";
import { showToast } from "@/components/ui/toast";
import { clearOnInvalid, failureText, linkButtonClass } from "@/components/form";

/** The Login form: e-mail and password. A wrong password shows 'The password is incorrect' (SPEC.md §8). */
export function LoginForm({
  email,
  onSignedIn,
  onOtherEmail,
}: {
  email: string;
  onSignedIn: (firstName: string | undefined) => void;
  onOtherEmail: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email, password: "" },
    reValidateMode: "onSubmit",
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      const me = await login(client, values.email, values.password);
      onSignedIn(me?.firstName);
    } catch (error) {
      if (error instanceof ApiError && error.message.includes("incorrect")) {
        showToast(t("auth.passwordIncorrect"), "error");
        form.setValue("password", "");
        form.setFocus("password");
      } else {
        showToast(failureText(t, error), "error");
      }
    }
  }, clearOnInvalid(form));

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
      <TextField
        label={t("auth.email")}
        type="email"
        autoComplete="username"
        error={errors.email?.message}
        {...form.register("email", { onChange: () => form.clearErrors("email") })}
      />
      <TextField
        label={t("auth.password")}
        type="password"
        autoComplete="current-password"
        autoFocus
        error={errors.password?.message}
        {...form.register("password", { onChange: () => form.clearErrors("password") })}
      />
      <Button type="submit" disabled={isSubmitting} className="w-full">
        {t("auth.loginButton")}
      </Button>
      <button type="button" onClick={onOtherEmail} className={`${linkButtonClass} self-center`}>
        {t("auth.otherEmail")}
      </button>
    </form>
  );
}

import { useState } from "react";
import { Link } from "react-router";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "@/i18n";
import { loginSchema, type LoginInput } from "@voltio/domain/account";
import { ApiError } from "@/api/client";
import { TextField } from "@/components/TextField";
import { Button } from "@/components/ui/Button";
import { showToast } from "@/components/ui/toast";
import { failureText, linkButtonClass } from "@/components/form";
import type { PendingSecondFactor } from "@/api/session";
import { useLogin } from "./api";
import { focusFirstInvalid } from "./keep-typed";
import { LazySecondFactorStep } from "./LazySecondFactorStep";

/**
 * The Login form: e-mail and password. A wrong password shows 'The password is incorrect' (docs/product-rules.md §10.7).
 * Right after signing up it opens with the new account's e-mail and password in. An account with a second
 * factor is then asked for its code (SecondFactorStep).
 */
export function LoginForm({
  email,
  password = "",
  onSignedIn,
  onOtherEmail,
}: {
  email: string;
  password?: string;
  onSignedIn: (firstName: string | undefined) => void;
  onOtherEmail: () => void;
}) {
  const { t } = useTranslation();
  const login = useLogin();
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email, password },
    reValidateMode: "onSubmit",
  });
  const { errors, isSubmitting } = form.formState;
  const [pending, setPending] = useState<PendingSecondFactor>();

  const submit = form.handleSubmit(async (values) => {
    try {
      const result = await login.mutateAsync({ email: values.email, password: values.password });
      if ("secondFactor" in result) setPending(result.secondFactor);
      else onSignedIn(result.user?.firstName);
    } catch (error) {
      if (error instanceof ApiError && error.message.includes("incorrect")) {
        showToast(t("auth.passwordIncorrect"), "error");
        form.setValue("password", "");
        form.setFocus("password");
      } else {
        showToast(failureText(t, error), "error");
      }
    }
  }, focusFirstInvalid(form));

  if (pending)
    return (
      <LazySecondFactorStep
        pending={pending}
        onSignedIn={onSignedIn}
        onRestart={() => {
          setPending(undefined);
          form.setValue("password", "");
        }}
      />
    );

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
      <TextField
        label={t("auth.email")}
        type="email"
        autoComplete="username"
        error={errors.email?.message}
        showRule
        {...form.register("email", { onChange: () => form.clearErrors("email") })}
      />
      <TextField
        label={t("auth.password")}
        type="password"
        autoComplete="current-password"
        autoFocus={!password}
        error={errors.password?.message}
        showRule
        {...form.register("password", { onChange: () => form.clearErrors("password") })}
      />
      <Link
        to="/password/forgot"
        state={{ email: form.getValues("email") }}
        className={`${linkButtonClass} -mt-2 self-end`}
      >
        {t("passwordReset.forgotLink")}
      </Link>
      <Button type="submit" disabled={isSubmitting} autoFocus={Boolean(password)} className="w-full">
        {t("auth.loginButton")}
      </Button>
      <button type="button" onClick={onOtherEmail} className={`${linkButtonClass} self-center`}>
        {t("auth.otherEmail")}
      </button>
    </form>
  );
}

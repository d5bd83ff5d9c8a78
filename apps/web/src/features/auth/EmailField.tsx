import type { ComponentProps } from "react";
import { useTranslation } from "@/i18n";
import { TextField } from "@/components/TextField";

/** The e-mail box that starts signing in and "Forgot password?": it keeps what was typed, its rule under it. */
export function EmailField(props: Omit<ComponentProps<typeof TextField>, "label" | "type">) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t("auth.email")}
      type="email"
      autoComplete="username"
      inputMode="email"
      autoFocus
      placeholder={t("auth.emailPlaceholder")}
      showRule
      {...props}
    />
  );
}

import { useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "@/i18n";
import { passwordChangeSchema } from "@voltio/domain/account";
import { ACCOUNT_MESSAGES } from "@voltio/domain/account-messages";
import { ApiError } from "@/api/client";
import { useUpdateUser } from "@/api/session-mutations";
import { useSession } from "@/api/session";
import {
  PasswordStrengthMeter,
  passwordRefusal,
  preloadPasswordStrength,
} from "@/components/PasswordStrength";
import { TextField, ruleText } from "@/components/TextField";
import { failureText } from "@/components/form";
import { showToast } from "@/components/ui/toast";
import { EditButtons } from "./EditableField";

const EMPTY = { prevPassword: "", newPassword: "" };

/**
 * The password row: the old password is required, and the new-password box opens only once the old one has
 * text (docs/product-rules.md §8). Both empty → 'Fill in the corresponding fields' (docs/product-rules.md §9).
 */
export function PasswordRow() {
  const { t } = useTranslation();
  const updateUser = useUpdateUser();
  const [editing, setEditing] = useState(false);
  const form = useForm({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: EMPTY,
    reValidateMode: "onSubmit",
    // Only the new-password box shows a rule; the focus stays on the confirm button.
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;
  const prevPassword = useWatch({ control: form.control, name: "prevPassword" });
  const newPassword = useWatch({ control: form.control, name: "newPassword" });
  // The strength rule judges the password against the account's own name and e-mail.
  const { user } = useSession();
  const owner = { firstName: user?.firstName, lastName: user?.lastName, email: user?.email };

  const submit = form.handleSubmit(
    async (values) => {
      const refusal = await passwordRefusal(values.newPassword, owner);
      if (refusal) {
        form.setError("newPassword", { type: "validate", message: refusal });
        return;
      }
      try {
        await updateUser.mutateAsync(values);
        showToast(t("profile.updated"));
        form.reset(EMPTY);
        setEditing(false);
      } catch (error) {
        if (error instanceof ApiError && error.message.includes("incorrect")) {
          showToast(t("auth.passwordIncorrect"), "error");
          form.setValue("prevPassword", "");
        } else {
          // The server's strength refusal (the same rule as above, judged again there) goes under the box.
          const refused =
            error instanceof ApiError
              ? (error.body as { details?: { field: string; reason: string }[] } | undefined)?.details?.find(
                  (detail) => detail.field === "newPassword",
                )
              : undefined;
          if (refused) form.setError("newPassword", { type: "server", message: refused.reason });
          else showToast(failureText(t, error), "error");
        }
      }
    },
    (invalid) => {
      // The first failed rule decides: an empty box is a toast, any other shows in the new-password box.
      const message =
        (invalid.prevPassword ?? invalid.newPassword)?.message ?? ACCOUNT_MESSAGES.fillPasswords;
      form.clearErrors();
      if (message === ACCOUNT_MESSAGES.fillPasswords) {
        showToast(ruleText(t, message), "error");
      } else {
        form.setError("newPassword", { type: "validate", message });
        form.setValue("newPassword", "");
      }
    },
  );

  return (
    <form
      onSubmit={(event) => (editing ? void submit(event) : event.preventDefault())}
      noValidate
      className="flex items-start gap-2"
    >
      <div className="grid min-w-0 flex-1 gap-3 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="prevPassword"
          render={({ field }) => (
            <TextField
              label={t("profile.oldPassword")}
              type="password"
              autoComplete="current-password"
              value={editing ? field.value : ""}
              placeholder={editing ? undefined : "••••••••"}
              disabled={!editing}
              onChange={(event) => {
                field.onChange(event.target.value);
                if (!event.target.value) form.setValue("newPassword", "");
              }}
            />
          )}
        />
        <Controller
          control={form.control}
          name="newPassword"
          render={({ field }) => (
            <TextField
              label={t("profile.newPassword")}
              type="password"
              autoComplete="new-password"
              value={field.value}
              placeholder={editing && prevPassword ? t("accountRules.passwordTooShort") : undefined}
              disabled={!editing || !prevPassword}
              error={errors.newPassword?.message}
              // A strength refusal keeps the password typed: its reason shows under the box.
              showRule={Boolean(field.value)}
              onFocus={preloadPasswordStrength}
              onChange={(event) => {
                field.onChange(event.target.value);
                form.clearErrors("newPassword");
              }}
            />
          )}
        />
        {editing && prevPassword && (
          <PasswordStrengthMeter password={newPassword} owner={owner} className="sm:col-start-2" />
        )}
      </div>
      <EditButtons
        label={t("profile.password")}
        editing={editing}
        onToggle={() => {
          setEditing((on) => !on);
          form.reset(EMPTY);
        }}
        busy={isSubmitting}
      />
    </form>
  );
}

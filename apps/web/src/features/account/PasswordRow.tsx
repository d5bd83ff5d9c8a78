import { useState, type FormEvent } from "react";
import { useTranslation } from "@/i18n";
import { useQueryClient } from "@tanstack/react-query";
import { passwordChangeSchema } from "@voltio/domain/account";
import { ACCOUNT_MESSAGES } from "@voltio/domain/account-messages";
import { ApiError } from "@/api/client";
import { storeUser, updateUser } from "@/api/session";
import { TextField, ruleText } from "@/components/TextField";
import { failureText } from "@/components/form";
import { showToast } from "@/components/ui/toast";
import { EditButtons } from "./EditableField";

/**
 * The password row: the old password is required, and the new-password box opens only once the old one has
 * text (SPEC.md §4). Both empty → 'Fill in the corresponding fields' (SPEC.md §5).
 */
export function PasswordRow() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [prevPassword, setPrevPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [newError, setNewError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setPrevPassword("");
    setNewPassword("");
    setNewError(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const checked = passwordChangeSchema.safeParse({ prevPassword, newPassword });
    if (!checked.success) {
      const message = checked.error.issues[0]?.message ?? ACCOUNT_MESSAGES.fillPasswords;
      if (message === ACCOUNT_MESSAGES.fillPasswords) {
        showToast(ruleText(t, message), "error");
      } else {
        setNewError(message);
        setNewPassword("");
      }
      return;
    }
    setBusy(true);
    try {
      storeUser(client, await updateUser(checked.data));
      showToast(t("profile.updated"));
      reset();
      setEditing(false);
    } catch (error) {
      if (error instanceof ApiError && error.message.includes("incorrect")) {
        showToast(t("auth.passwordIncorrect"), "error");
        setPrevPassword("");
      } else {
        showToast(failureText(t, error), "error");
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex items-start gap-2">
      <div className="grid min-w-0 flex-1 gap-3 sm:grid-cols-2">
        <TextField
          label={t("profile.oldPassword")}
          type="password"
          autoComplete="current-password"
          value={editing ? prevPassword : ""}
          placeholder={editing ? undefined : "••••••••"}
          disabled={!editing}
          onChange={(event) => {
            setPrevPassword(event.target.value);
            if (!event.target.value) setNewPassword("");
          }}
        />
        <TextField
          label={t("profile.newPassword")}
          type="password"
          autoComplete="new-password"
          value={newPassword}
          placeholder={editing && prevPassword ? t("accountRules.passwordTooShort") : undefined}
          disabled={!editing || !prevPassword}
          error={newError}
          onChange={(event) => {
            setNewPassword(event.target.value);
            setNewError(undefined);
          }}
        />
      </div>
      <EditButtons
        label={t("profile.password")}
        editing={editing}
        onToggle={() => {
          setEditing((on) => !on);
          reset();
        }}
        busy={busy}
      />
    </form>
  );
}

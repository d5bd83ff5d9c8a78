import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "@/i18n";
import { Check, Pencil } from "lucide-react";
import type { ZodType } from "zod";
import { TextField } from "@/components/TextField";

export const iconButtonClass =
  "grid h-11 w-11 shrink-0 place-items-center rounded-xl border border-line text-ink transition hover:bg-accent-soft hover:text-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent disabled:hover:text-ink aria-pressed:border-accent aria-pressed:bg-accent-soft aria-pressed:text-accent-strong";

/** The pencil that unlocks a row, and the confirm button that saves it (SPEC.md §4, profile editing). */
export function EditButtons({
  label,
  editing,
  onToggle,
  canConfirm = editing,
  busy,
}: {
  label: string;
  editing: boolean;
  onToggle: () => void;
  canConfirm?: boolean;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex gap-2 self-end">
      <button
        type="button"
        onClick={onToggle}
        aria-pressed={editing}
        aria-label={t("profile.edit", { field: label })}
        title={t("profile.edit", { field: label })}
        className={iconButtonClass}
      >
        <Pencil size={18} aria-hidden />
      </button>
      <button
        type="submit"
        disabled={!canConfirm || busy}
        aria-label={t("profile.confirm", { field: label })}
        title={t("profile.confirm", { field: label })}
        className={iconButtonClass}
      >
        <Check size={18} aria-hidden />
      </button>
    </div>
  );
}

/**
 * One row of 'User Data': disabled until the pencil is pressed; confirm sends only this field and locks it
 * again. The domain's rule is checked first and, when it fails, shown like on the register form.
 */
export function EditableField({
  label,
  value,
  rule,
  save,
  type = "text",
  autoComplete,
  locked,
  note,
}: {
  label: string;
  value: string;
  rule: ZodType<string>;
  save: (value: string) => Promise<boolean>;
  type?: string;
  autoComplete?: string;
  /** Never editable (a Google account's e-mail). */
  locked?: boolean;
  note?: ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const toggle = () => {
    setEditing((on) => !on);
    setDraft(value);
    setError(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const checked = rule.safeParse(draft);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message);
      setDraft("");
      return;
    }
    setBusy(true);
    const saved = await save(checked.data);
    setBusy(false);
    if (saved) {
      setEditing(false);
      setError(undefined);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex items-start gap-2">
      <TextField
        className="min-w-0 flex-1"
        label={label}
        type={type}
        autoComplete={autoComplete}
        value={editing ? draft : value}
        disabled={!editing}
        error={error}
        onChange={(event) => {
          setDraft(event.target.value);
          setError(undefined);
        }}
      />
      {locked ? note : <EditButtons label={label} editing={editing} onToggle={toggle} busy={busy} />}
    </form>
  );
}

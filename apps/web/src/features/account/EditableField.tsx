import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "@/i18n";
import { Check, Pencil } from "lucide-react";
import type { ZodType } from "zod";
import { TextField } from "@/components/TextField";
import { IconButton } from "@/components/ui/IconButton";

const EDIT_BUTTON = { variant: "outline", shape: "square", size: "lg" } as const;

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
      <IconButton
        {...EDIT_BUTTON}
        onClick={onToggle}
        aria-pressed={editing}
        label={t("profile.edit", { field: label })}
        icon={<Pencil size={18} aria-hidden />}
      />
      <IconButton
        {...EDIT_BUTTON}
        type="submit"
        disabled={!canConfirm || busy}
        label={t("profile.confirm", { field: label })}
        icon={<Check size={18} aria-hidden />}
      />
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

import { useState, type ReactNode } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "@/i18n";
import { Check, Pencil } from "lucide-react";
import type { ZodType } from "zod";
import { TextField } from "@/components/TextField";
import { IconButton } from "@/components/ui/IconButton";

const EDIT_BUTTON = { variant: "outline", shape: "square", size: "lg" } as const;

/** The pencil that unlocks a row, and the confirm button that saves it (docs/product-rules.md §8, profile editing). */
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
  name,
  label,
  value,
  schema,
  save,
  type = "text",
  autoComplete,
  locked,
  note,
}: {
  /** The field's key in `schema`. */
  name: string;
  label: string;
  value: string;
  /** The domain's rule for this one field, e.g. `registerSchema.pick({ firstName: true })`. */
  schema: ZodType<Record<string, string>, Record<string, string>>;
  save: (value: string) => Promise<boolean>;
  type?: string;
  autoComplete?: string;
  /** Never editable (a Google account's e-mail). */
  locked?: boolean;
  note?: ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const form = useForm<Record<string, string>>({
    resolver: zodResolver(schema),
    defaultValues: { [name]: value },
    reValidateMode: "onSubmit",
    // The failed rule shows under the box, which keeps what was typed; the focus stays
    // on the confirm button.
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;

  const toggle = () => {
    setEditing((on) => !on);
    form.reset({ [name]: value });
  };

  const submit = form.handleSubmit(async (checked) => {
    if (await save(checked[name]!)) setEditing(false);
  });

  return (
    <form
      onSubmit={(event) => (editing ? void submit(event) : event.preventDefault())}
      noValidate
      className="flex items-start gap-2"
    >
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <TextField
            className="min-w-0 flex-1"
            label={label}
            type={type}
            autoComplete={autoComplete}
            value={editing ? field.value : value}
            disabled={!editing}
            error={errors[name]?.message}
            showRule
            onChange={(event) => {
              field.onChange(event.target.value);
              form.clearErrors(name);
            }}
          />
        )}
      />
      {locked ? note : <EditButtons label={label} editing={editing} onToggle={toggle} busy={isSubmitting} />}
    </form>
  );
}

import { useId, useState, type ReactNode } from "react";
import { Filter } from "lucide-react";
import { Button } from "@/components/ui/Button";
import { Field } from "./Field";

/** A positive whole number from the URL or a typed box; undefined for anything else. */
export const positiveId = (value: string | null) => {
  const number = Number(value);
  return value && Number.isInteger(number) && number > 0 ? number : undefined;
};

export const filterFieldClass =
  "h-11 w-full rounded-xl border border-line bg-card px-3 text-sm text-ink focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent";

/**
 * The 'user id' box of a back-office filter form: digits only, sent with the form, and following the URL
 * when it changes under the form (the back button, 'Clear filters', a link). `typed()` is what it holds.
 */
export function useUserIdBox(current: number | undefined) {
  const [value, setValue] = useState(current ? String(current) : "");
  const [shown, setShown] = useState(current);
  if (shown !== current) {
    setShown(current);
    setValue(current ? String(current) : "");
  }
  return { value, setValue, typed: () => positiveId(value.trim()) };
}

export function UserIdBox({ label, box }: { label: string; box: ReturnType<typeof useUserIdBox> }) {
  const id = useId();
  return (
    <Field small id={id} label={label}>
      <input
        id={id}
        value={box.value}
        onChange={(event) => box.setValue(event.target.value.replace(/\D/g, ""))}
        inputMode="numeric"
        autoComplete="off"
        className={filterFieldClass}
      />
    </Field>
  );
}

/** A filter that applies as it is ticked, with a hint under its label. */
export function CheckboxFilter({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="flex min-h-11 items-center gap-2">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hintId}
        className="h-5 w-5 shrink-0 accent-accent"
      />
      <label htmlFor={id} className="text-sm text-ink">
        {label}
        <span id={hintId} className="block text-xs text-muted">
          {hint}
        </span>
      </label>
    </div>
  );
}

/** 'Apply' (the form's submit) and, while anything is filtered, 'Clear'. */
export function FilterActions({
  apply,
  clear,
  filtered,
  onClear,
}: {
  apply: ReactNode;
  clear: ReactNode;
  filtered: boolean;
  onClear: () => void;
}) {
  return (
    <div className="flex gap-2 sm:col-span-2 lg:col-span-1">
      <Button type="submit" size="lg" className="flex-1 text-sm lg:flex-none">
        <Filter size={16} aria-hidden />
        {apply}
      </Button>
      {filtered && (
        <Button variant="ghost" size="lg" className="flex-1 text-sm lg:flex-none" onClick={onClear}>
          {clear}
        </Button>
      )}
    </div>
  );
}

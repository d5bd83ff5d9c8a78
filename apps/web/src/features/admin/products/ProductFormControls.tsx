import { useId, type ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { Field } from "../Field";

export const inputClass = (error?: string) =>
  `w-full rounded-xl border bg-surface px-3 text-sm text-ink focus:border-accent focus:outline-2 focus:-outline-offset-1 focus:outline-accent ${error ? "border-sale" : "border-line"}`;

interface TextInputProps extends UseFormRegisterReturn {
  label: string;
  error?: string;
  multiline?: boolean;
  inputMode?: "decimal" | "numeric";
  className?: string;
}

export function TextInput({ label, error, multiline, inputMode, className, ...registered }: TextInputProps) {
  const id = useId();
  const shared = {
    id,
    ...registered,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
  };
  return (
    <Field id={id} label={label} error={error} className={className}>
      {multiline ? (
        <textarea {...shared} rows={5} className={`${inputClass(error)} py-2`} />
      ) : (
        <input {...shared} inputMode={inputMode} className={`${inputClass(error)} h-11`} />
      )}
    </Field>
  );
}

export function Fieldset({
  legend,
  error,
  children,
}: {
  legend: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className="flex flex-col gap-2 sm:col-span-2">
      <legend className="mb-1 text-sm font-medium text-ink">{legend}</legend>
      {children}
      {error && <p className="text-xs font-semibold text-sale">{error}</p>}
    </fieldset>
  );
}

import { useId, type ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";

export const inputClass = (error?: string) =>
  `w-full rounded-xl border bg-surface px-3 text-sm text-ink focus:border-accent focus:outline-2 focus:-outline-offset-1 focus:outline-accent ${error ? "border-sale" : "border-line"}`;

interface TextInputProps extends UseFormRegisterReturn {
  label: string;
  error?: string;
  multiline?: boolean;
  inputMode?: "decimal" | "numeric";
  className?: string;
}

export function TextInput({
  label,
  error,
  multiline,
  inputMode,
  className = "",
  ...registered
}: TextInputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const shared = {
    id,
    ...registered,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  };
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      {multiline ? (
        <textarea {...shared} rows={5} className={`${inputClass(error)} py-2`} />
      ) : (
        <input {...shared} inputMode={inputMode} className={`${inputClass(error)} h-11`} />
      )}
      {error && (
        <p id={errorId} className="text-xs font-semibold text-sale">
          {error}
        </p>
      )}
    </div>
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

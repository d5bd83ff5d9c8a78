import type { ReactNode } from "react";

/**
 * A label over its control, an optional hint, and the failed rule under it (the control's description):
 * the control takes `id`, and `${id}-error` (or `${id}-hint`) as its aria-describedby. `small` is the
 * quieter label of a filter or of a part inside a fieldset; `className` is for layout only.
 */
export function Field({
  id,
  label,
  hint,
  error,
  small,
  className,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  small?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className ?? ""}`}>
      <label htmlFor={id} className={small ? "text-xs text-muted" : "text-sm font-medium text-ink"}>
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-semibold text-sale">
          {error}
        </p>
      )}
    </div>
  );
}

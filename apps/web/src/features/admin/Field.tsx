import type { ReactNode } from "react";

/**
 * A label over its control, and the failed rule under it (the control's description): the control takes
 * `id`, and `${id}-error` as its aria-describedby while there is an error.
 */
export function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-xs font-semibold text-sale">
          {error}
        </p>
      )}
    </div>
  );
}

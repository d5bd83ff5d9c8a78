import { ApiError } from "@/api/client";
import type { FieldErrors, FieldValues, Path, UseFormReturn } from "react-hook-form";
import { focusRingClass } from "./ui/focus-ring";

export const linkButtonClass = `rounded text-sm font-medium text-accent-strong hover:underline ${focusRingClass}`;

/**
 * docs/product-rules.md §9: the failed rule shows in the placeholder, so a failing box is emptied to let it be read.
 * The error stays until the shopper types in the box again.
 */
export function clearOnInvalid<T extends FieldValues>(form: UseFormReturn<T>) {
  return (errors: FieldErrors<T>) => {
    for (const name of Object.keys(errors) as Path<T>[]) {
      form.setValue(name, "" as never, { shouldValidate: false });
    }
    const first = Object.keys(errors)[0] as Path<T> | undefined;
    if (first) form.setFocus(first);
  };
}

/** The server's 400 details, put on the boxes they name (the same rules as the client's). */
export function applyServerErrors<T extends FieldValues>(form: UseFormReturn<T>, body: unknown): boolean {
  const details = (body as { details?: { field: string; reason: string }[] } | undefined)?.details;
  if (!details?.length) return false;
  for (const { field, reason } of details) {
    form.setValue(field as Path<T>, "" as never);
    form.setError(field as Path<T>, { type: "server", message: reason });
  }
  return true;
}

/** The failure toast every form shows for throttling and unexpected errors. */
export function failureText(t: (key: string) => string, error: unknown): string {
  if (error instanceof ApiError && error.status === 429) return t("auth.tooMany");
  return t("auth.failed");
}

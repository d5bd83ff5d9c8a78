import type { FieldErrors, FieldValues, Path, UseFormReturn } from "react-hook-form";

/**
 * The account forms keep what was typed when a box is refused, instead of emptying it
 * for the placeholder as docs/product-rules.md §9 did: the rule shows under the box (TextField `showRule`), the first
 * refused box gets the focus, and the text is there to correct.
 */
export function focusFirstInvalid<T extends FieldValues>(form: UseFormReturn<T>) {
  return (errors: FieldErrors<T>) => {
    const first = Object.keys(errors)[0] as Path<T> | undefined;
    if (first) form.setFocus(first);
  };
}

/** The server's 400 details on the boxes they name, keeping their text. False when there were none. */
export function showServerErrors<T extends FieldValues>(
  form: UseFormReturn<T>,
  body: unknown,
  fields: readonly Path<T>[],
): boolean {
  const details = (body as { details?: { field: string; reason: string }[] } | undefined)?.details;
  const known = details?.filter(({ field }) => (fields as readonly string[]).includes(field)) ?? [];
  for (const { field, reason } of known) form.setError(field as Path<T>, { type: "server", message: reason });
  const first = known[0]?.field as Path<T> | undefined;
  if (first) form.setFocus(first);
  return known.length > 0;
}

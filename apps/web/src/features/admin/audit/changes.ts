/** One field an audited change touched: its value before and after (undefined when it had none). */
export interface Change {
  field: string;
  before: unknown;
  after: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The fields that differ between `details.before` and `details.after` (a created record has no before, a
 * deleted one no after). Null when the details are not records before and after: the page shows them raw.
 */
export function changesOf(details: unknown): Change[] | null {
  if (!isRecord(details) || !("before" in details || "after" in details)) return null;
  const before = details.before ?? {};
  const after = details.after ?? {};
  if (!isRecord(before) || !isRecord(after)) return null;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}

/** A value as a short text: strings as they are, everything else as JSON; null when there is nothing. */
export const shown = (value: unknown): string | null =>
  value === undefined || value === null || value === ""
    ? null
    : typeof value === "string"
      ? value
      : JSON.stringify(value);

/** Money travels as integer cents inside Voltio and as dollars with 2 decimals in the API. */

/** Rounds half away from zero to a whole number of cents (half-up for the non-negative amounts we handle). */
export function roundHalfUp(value: number): number {
  // The epsilon absorbs binary noise such as 1.005 * 100 = 100.49999999999999.
  return Math.sign(value) * Math.round(Math.abs(value) + 1e-9);
}

export function toCents(dollars: number): number {
  return roundHalfUp(dollars * 100);
}

export function toDollars(cents: number): number {
  return cents / 100;
}

/** "1234.5" → "1234.50": the two-decimal text the SPEC shows everywhere. */
export function formatDollars(dollars: number): string {
  return (toCents(dollars) / 100).toFixed(2);
}

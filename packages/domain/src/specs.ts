/**
 * Specifications (issue 41): typed attributes defined per category, a product's values of them, and how the
 * compare page judges them. No zod here: the product and compare pages read these on their first paint.
 */

export const ATTRIBUTE_TYPES = ["number", "text", "enum"] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Whether more (RAM, DPI) or less (weight, latency) is better; none when neither is (colour, CPU). */
export const BETTER_WHEN = ["higher", "lower"] as const;
export type BetterWhen = (typeof BETTER_WHEN)[number];

/** An attribute's key: what filters name it by (`spec.ram_gb.min=16`). */
export const ATTRIBUTE_KEY = /^[a-z][a-z0-9_]{0,39}$/;

export interface AttributeDefinition {
  key: string;
  label: string;
  type: AttributeType;
  unit: string;
  enumValues: string[];
}

/** A product's value of an attribute, as product replies give it: `{key, label, value, unit}`. */
export interface SpecValue {
  key: string;
  label: string;
  value: number | string;
  unit: string;
}

/**
 * The value an admin or a CSV gave, as the attribute's type stores it, or the reason it isn't one: numbers
 * may come as typed ("15.6"), enums must be one of their values (whatever the case, stored as defined).
 */
export function parseSpecValue(
  attribute: AttributeDefinition,
  input: unknown,
): { value: number | string } | { problem: string } {
  if (attribute.type === "number") {
    const number = typeof input === "number" ? input : typeof input === "string" ? Number(input.trim()) : NaN;
    if (typeof input === "string" && input.trim() === "") return { problem: "must be a number" };
    if (!Number.isFinite(number)) return { problem: "must be a number" };
    if (Math.abs(number) > 1e12) return { problem: "is too large" };
    return { value: number };
  }
  if (typeof input !== "string" && typeof input !== "number") return { problem: "must be a text" };
  const text = String(input).trim();
  if (text === "") return { problem: "must not be empty" };
  if (text.length > 200) return { problem: "must be at most 200 characters" };
  if (attribute.type === "enum") {
    const match = attribute.enumValues.find((value) => value.toLowerCase() === text.toLowerCase());
    return match === undefined
      ? { problem: `must be one of ${attribute.enumValues.join(", ")}` }
      : { value: match };
  }
  return { value: text };
}

/** A value with its unit, as pages show it: "16 GB", "15.6 in", "Wireless". */
export function formatSpec(value: number | string, unit: string): string {
  const shown = typeof value === "number" ? String(Math.round(value * 100) / 100) : value;
  return unit === "" ? shown : `${shown} ${unit}`;
}

/** The index of the best value of a compare row (ties: all of them), or none when the row has no better. */
export function bestValues(values: (number | string | undefined)[], betterWhen: BetterWhen | null): number[] {
  if (betterWhen === null) return [];
  const numbers = values.map((value) => (typeof value === "number" ? value : undefined));
  const present = numbers.filter((value): value is number => value !== undefined);
  if (present.length < 2) return [];
  const best = betterWhen === "higher" ? Math.max(...present) : Math.min(...present);
  if (present.every((value) => value === best)) return [];
  return numbers.flatMap((value, index) => (value === best ? [index] : []));
}

/** Whether a compare row differs between the products (highlighted). */
export function valuesDiffer(values: (number | string | undefined)[]): boolean {
  return new Set(values.map((value) => (value === undefined ? "" : String(value)))).size > 1;
}

/** A URL slug of a brand's name: "Logitech G" → "logitech-g". */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

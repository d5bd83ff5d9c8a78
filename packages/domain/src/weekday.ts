/** Sales run on a store weekday (three-letter lowercase abbreviation) or on every day ("all"). */
export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const SALE_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun", "all"] as const;
export type SaleDay = (typeof SALE_DAYS)[number];

/** The admin form offers full names; the API stores abbreviations. */
export const SALE_DAY_NAMES = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "all",
] as const;

/** Accepts monday..sunday, mon..sun or all (any case); returns the stored form, or null when unknown. */
export function normalizeSaleDay(input: string): SaleDay | null {
  const value = input.trim().toLowerCase();
  if (value === "all") return "all";
  const abbreviation = value.slice(0, 3);
  const fullName = SALE_DAY_NAMES.find((name) => name.startsWith(abbreviation));
  if (!(SALE_DAYS as readonly string[]).includes(abbreviation)) return null;
  if (value.length > 3 && value !== fullName) return null;
  return abbreviation as SaleDay;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today's weekday in the store's time zone: a sale for "fri" applies on the store's Friday, not the server's. */
export function weekdayIn(timeZone: string, at: Date = new Date()): Weekday {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { weekday: "short", timeZone });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(at).toLowerCase() as Weekday;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

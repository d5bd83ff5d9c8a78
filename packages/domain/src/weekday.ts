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

const dateFormatters = new Map<string, { fields: Intl.DateTimeFormat; name: Intl.DateTimeFormat }>();

/**
 * A moment as JavaScript's `Date()` writes it, in the store's time zone: "Wed Nov 25 2026 12:00:00 GMT-0300
 * (Argentina Standard Time)". SPEC's client records purchase dates in this form and groups its purchases by
 * their first 24 characters.
 */
export function dateStringIn(timeZone: string, at: Date = new Date()): string {
  let formatter = dateFormatters.get(timeZone);
  if (!formatter) {
    formatter = {
      fields: new Intl.DateTimeFormat("en-US", {
        timeZone,
        weekday: "short",
        month: "short",
        day: "2-digit",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        hourCycle: "h23",
        timeZoneName: "longOffset",
      }),
      name: new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "long" }),
    };
    dateFormatters.set(timeZone, formatter);
  }
  const part = (format: Intl.DateTimeFormat, type: Intl.DateTimeFormatPartTypes) =>
    format.formatToParts(at).find((one) => one.type === type)?.value ?? "";
  const field = (type: Intl.DateTimeFormatPartTypes) => part(formatter.fields, type);
  // "GMT-03:00", or a bare "GMT" at offset zero; Date() writes "GMT-0300" and "GMT+0000".
  const offset = field("timeZoneName").replace(/^GMT$/, "GMT+00:00").replace(":", "");
  return (
    `${field("weekday")} ${field("month")} ${field("day")} ${field("year")} ` +
    `${field("hour")}:${field("minute")}:${field("second")} ${offset} (${part(formatter.name, "timeZoneName")})`
  );
}

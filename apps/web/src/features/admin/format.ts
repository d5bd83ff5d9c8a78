import type { Language } from "@/i18n";

/** docs/product-rules.md §12: chart labels are cut at 15 characters. */
export const chartLabel = (text: string) => (text.length > 15 ? `${text.slice(0, 15)}…` : text);

/** docs/product-rules.md §12: chart dates read 'MMMM D, YYYY' ('November 24, 2026'), in the page's language. */
export const chartDate = (isoDate: string, language: Language) =>
  new Intl.DateTimeFormat(language === "es" ? "es" : "en-US", {
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));

/** docs/product-rules.md §1: names capitalised ('ada lovelace' → 'Ada Lovelace'). */
export const capitalised = (name: string) =>
  name
    .toLowerCase()
    .replace(/(^|[\s-])(\p{L})/gu, (_match, start: string, letter: string) => start + letter.toUpperCase());

/**
 * docs/product-rules.md §1 Admin dashboard: six fixed palette colours, in this order (index.css: the SPEC's own in the
 * light theme, lighter tones of them in the dark one, where the indigo line would fall under 3:1).
 */
export const PALETTE = [1, 2, 3, 4, 5, 6].map((n) => `var(--color-chart-${n})`);

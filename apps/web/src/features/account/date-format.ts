import type { Language } from "@/i18n";

/** A date and time in the shopper's language, in their own time zone (the Purchases cards, the order page). */
export const localDateTime = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(language === "es" ? "es-AR" : "en-US", {
    dateStyle: "long",
    timeStyle: "short",
  }).format(new Date(iso));

import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { en } from "./en";

export const LANGUAGES = ["en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];

function initialLanguage(): Language {
  const saved = localStorage.getItem("lang");
  if (saved === "en" || saved === "es") return saved;
  return navigator.language.toLowerCase().startsWith("es") ? "es" : "en";
}

/**
 * Spanish is its own chunk, so English visitors don't download it. i18next asks this backend for it when
 * Spanish is chosen; until it arrives, react-i18next suspends the render, so nobody sees English first.
 */
const spanishChunk: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    if (language !== "es") {
      callback(null, {});
      return;
    }
    import("./es").then(
      ({ es }) => callback(null, es),
      (error: Error) => callback(error, null),
    );
  },
};

void i18n
  .use(spanishChunk)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
    lng: initialLanguage(),
    fallbackLng: "en",
    interpolation: { escapeValue: false },
  });

export function setLanguage(language: Language) {
  localStorage.setItem("lang", language);
  document.documentElement.lang = language;
  void i18n.changeLanguage(language);
}

export default i18n;

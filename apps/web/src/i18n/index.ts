import { useCallback, useSyncExternalStore } from "react";
import type { AdminMessages } from "./admin-en";
import { en, type Messages } from "./en";

/**
 * A small translator instead of i18next (ADR 0006): nested keys, `{{name}}` placeholders, `_one`/`_other`
 * plurals chosen by Intl.PluralRules, English as the fallback. That is all the store's texts need, and
 * it keeps ~18 KB of gzipped library off every storefront page.
 */
export type Language = "en" | "es";
export type Translate = (key: string, values?: Record<string, string | number>) => string;

const dictionaries: Partial<Record<Language, Messages>> = { en };
const pluralRules = new Map<Language, Intl.PluralRules>();
const listeners = new Set<() => void>();
let current: Language = "en";

/** The back office's texts (admin-en.ts, admin-es.ts), loaded with the admin area only. */
const adminDictionaries: Partial<Record<Language, AdminMessages>> = {};
let adminTextsWanted = false;

async function loadAdminDictionary(language: Language): Promise<void> {
  if (adminDictionaries[language]) return;
  adminDictionaries[language] =
    language === "es" ? (await import("./admin-es")).adminEs : (await import("./admin-en")).adminEn;
}

/** Spanish is its own chunk, so English visitors never download it. */
async function loadDictionary(language: Language): Promise<void> {
  if (!dictionaries[language]) dictionaries[language] = (await import("./es")).es;
  if (adminTextsWanted) await loadAdminDictionary(language);
}

/**
 * Before the back office first renders (app/router.tsx): its texts in the current language and in English,
 * the fallback. From then on a change of language loads them too. No storefront page carries them (ADR 0006).
 */
export async function loadAdminTexts(): Promise<void> {
  adminTextsWanted = true;
  await Promise.all([loadAdminDictionary("en"), loadAdminDictionary(current)]);
}

function savedLanguage(): Language | null {
  try {
    const saved = localStorage.getItem("lang");
    return saved === "en" || saved === "es" ? saved : null;
  } catch {
    return null;
  }
}

function saveLanguage(language: Language) {
  localStorage.setItem("lang", language);
  // The server renders pages in the language this cookie names (apps/server/src/modules/web/ssr.ts).
  document.cookie = `lang=${language}; path=/; max-age=31536000; samesite=lax`;
}

/** Before the first render: the visitor's language, with its texts loaded, so nobody sees English first. */
export async function startLanguage(): Promise<void> {
  const saved = savedLanguage();
  const language = saved ?? (navigator.language.toLowerCase().startsWith("es") ? "es" : "en");
  // A choice saved before the server rendered pages has no cookie yet: the next page is rendered in it.
  if (saved && !document.cookie.includes(`lang=${saved}`)) saveLanguage(saved);
  await loadDictionary(language);
  current = language;
  // The server guessed from the cookie or Accept-Language; screen readers pronounce by this attribute.
  document.documentElement.lang = language;
}

export async function setLanguage(language: Language): Promise<void> {
  await loadDictionary(language);
  saveLanguage(language);
  document.documentElement.lang = language;
  current = language;
  listeners.forEach((listener) => listener());
}

export const currentLanguage = (): Language => current;

/** The server's render (entry-server.tsx) in the request's language; synchronous, so no other render interleaves. */
export function renderInLanguage<T>(language: Language, messages: Messages, render: () => T): T {
  dictionaries[language] = messages;
  const previous = current;
  current = language;
  try {
    return render();
  } finally {
    current = previous;
  }
}

function lookup(messages: Messages | AdminMessages | undefined, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string" ? node : undefined;
}

/** A text of the storefront's dictionary, else of the back office's once it is loaded. */
const find = (language: Language, key: string) =>
  lookup(dictionaries[language], key) ?? lookup(adminDictionaries[language], key);

export function translate(language: Language, key: string, values?: Record<string, string | number>): string {
  let text: string | undefined;
  if (typeof values?.count === "number") {
    let rules = pluralRules.get(language);
    if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
    const pluralKey = `${key}_${rules.select(values.count)}`;
    text = find(language, pluralKey) ?? find("en", pluralKey);
  }
  text ??= find(language, key) ?? find("en", key) ?? key;
  if (!values) return text;
  return text.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) =>
    name in values ? String(values[name]) : placeholder,
  );
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useLanguage(): Language {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
}

export function useTranslation(): { t: Translate; language: Language } {
  const language = useLanguage();
  const t = useCallback<Translate>((key, values) => translate(language, key, values), [language]);
  return { t, language };
}

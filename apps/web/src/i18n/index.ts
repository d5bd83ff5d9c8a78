import { lazy, useCallback, useSyncExternalStore, type ComponentType } from "react";
import { en } from "./en";

/**
 * A small translator instead of i18next (ADR 0006): nested keys, `{{name}}` placeholders, `_one`/`_other`
 * plurals chosen by Intl.PluralRules, English as the fallback. That is all the store's texts need, and
 * it keeps ~18 KB of gzipped library off every storefront page.
 */
export type Language = "en" | "es";
export type Translate = (key: string, values?: Record<string, string | number>) => string;
type Dictionary = Readonly<Record<string, unknown>>;

/**
 * Texts only some screens show, each a chunk per language loaded with them (app/router.tsx): the catalogue's
 * pages carry none of them (ADR 0006).
 */
const PACKS = {
  account: {
    en: () => import("./account-en").then((pack) => pack.accountEn),
    es: () => import("./account-es").then((pack) => pack.accountEs),
  },
  shopping: {
    en: () => import("./shopping-en").then((pack) => pack.shoppingEn),
    es: () => import("./shopping-es").then((pack) => pack.shoppingEs),
  },
  security: {
    en: () => import("./security-en").then((pack) => pack.securityEn),
    es: () => import("./security-es").then((pack) => pack.securityEs),
  },
  catalogue: {
    en: () => import("./catalogue-en").then((pack) => pack.catalogueEn),
    es: () => import("./catalogue-es").then((pack) => pack.catalogueEs),
  },
  admin: {
    en: () => import("./admin-en").then((pack) => pack.adminEn),
    es: () => import("./admin-es").then((pack) => pack.adminEs),
  },
} satisfies Record<string, Record<Language, () => Promise<Dictionary>>>;
export type TextPack = keyof typeof PACKS;

/** Per language: the texts every page may show, then the packs loaded so far. */
const dictionaries: Record<Language, { core?: Dictionary; packs: Partial<Record<TextPack, Dictionary>> }> = {
  en: { core: en, packs: {} },
  es: { packs: {} },
};
const wantedPacks = new Set<TextPack>();
const pluralRules = new Map<Language, Intl.PluralRules>();
const listeners = new Set<() => void>();
let current: Language = "en";

async function loadPack(language: Language, pack: TextPack): Promise<void> {
  dictionaries[language].packs[pack] ??= await PACKS[pack][language]();
}

/** Spanish is its own chunk, so English visitors never download it; with it the packs asked for so far. */
async function loadDictionary(language: Language): Promise<void> {
  dictionaries[language].core ??= (await import("./es")).es;
  await Promise.all([...wantedPacks].map((pack) => loadPack(language, pack)));
}

/**
 * Before a screen that shows a pack's texts first renders (app/router.tsx): the pack in the current language
 * and in English, the fallback. From then on a change of language loads it too.
 */
export async function loadTexts(...packs: TextPack[]): Promise<void> {
  packs.forEach((pack) => wantedPacks.add(pack));
  await Promise.all(packs.flatMap((pack) => [loadPack("en", pack), loadPack(current, pack)]));
}

/** React.lazy of a component that first renders once its texts' packs are loaded too. */
export function lazyWithTexts<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  ...packs: TextPack[]
) {
  return lazy(async () => (await Promise.all([load(), loadTexts(...packs)]))[0]);
}

const isLanguage = (value: string | null | undefined): value is Language => value === "en" || value === "es";

function savedLanguage(): Language | null {
  try {
    const saved = localStorage.getItem("lang");
    return isLanguage(saved) ? saved : null;
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
  // The header's picker works in the server's page before the app runs; hydrating would undo such a choice.
  const picked = pickedBeforeStart();
  if (picked && picked !== language) await setLanguage(picked);
}

/** The id of the header's language picker (app/Header.tsx). */
export const LANGUAGE_PICKER_ID = "language";

/** A language the visitor chose in the server's page (the header's picker moved off what it was drawn with). */
function pickedBeforeStart(): Language | null {
  const picker = document.getElementById(LANGUAGE_PICKER_ID);
  if (!(picker instanceof HTMLSelectElement)) return null;
  const drawn = [...picker.options].find((option) => option.defaultSelected)?.value;
  const value = picker.value;
  return value !== drawn && isLanguage(value) ? value : null;
}

export async function setLanguage(language: Language): Promise<void> {
  await loadDictionary(language);
  saveLanguage(language);
  document.documentElement.lang = language;
  current = language;
  listeners.forEach((listener) => listener());
}

export const currentLanguage = (): Language => current;

/**
 * The server's render (entry-server.tsx) in the request's language, every pack included; synchronous, so no
 * other render interleaves.
 */
export function renderInLanguage<T>(
  language: Language,
  texts: { core: Dictionary; packs: Record<TextPack, Dictionary> },
  render: () => T,
): T {
  dictionaries[language] = texts;
  const previous = current;
  current = language;
  try {
    return render();
  } finally {
    current = previous;
  }
}

function lookup(messages: Dictionary | undefined, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string" ? node : undefined;
}

/** A text of the language's dictionary, else of the packs loaded so far. */
function find(language: Language, key: string): string | undefined {
  const { core, packs } = dictionaries[language];
  let text = lookup(core, key);
  for (const pack of Object.values(packs)) text ??= lookup(pack, key);
  return text;
}

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

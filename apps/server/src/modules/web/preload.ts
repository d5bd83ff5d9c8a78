import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { PAGE_TEXTS } from "../../../../web/src/app/page-texts";
import { escapeXml } from "../../http/escape";

/** One chunk of Vite's build manifest (dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/** The page component behind each storefront path, as the manifest names it (apps/web/src/app/router.tsx). */
export const PAGE_SOURCES = {
  home: "src/features/catalog/HomePage.tsx",
  listing: "src/features/catalog/ProductListPage.tsx",
  product: "src/features/product/ProductPage.tsx",
  compare: "src/features/compare/ComparePage.tsx",
  about: "src/features/about/AboutPage.tsx",
  login: "src/features/auth/LoginPage.tsx",
  notFound: "src/components/NotFoundPage.tsx",
} as const;

export type Page = keyof typeof PAGE_SOURCES;

/** The text packs a page renders with: the web app's own list (a file without imports), by component name. */
const textPacksOf = (page: Page): readonly string[] =>
  (PAGE_TEXTS as Record<string, readonly string[]>)[basename(PAGE_SOURCES[page], ".tsx")] ?? [];

export function loadManifest(webDist: string): Manifest | null {
  const file = join(webDist, ".vite/manifest.json");
  if (!existsSync(file)) return null;
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
  // Rolldown may merge the entry module into the shared "app" chunk, which the manifest then doesn't flag
  // as an entry: what index.html loads by itself is the entry's either way.
  const html = readFileSync(join(webDist, "index.html"), "utf8");
  for (const chunk of Object.values(manifest)) if (html.includes(`/${chunk.file}"`)) chunk.isEntry = true;
  return manifest;
}

/**
 * The chunk files a page needs beyond the entry's own (which the HTML already loads): its own, and its texts
 * in the page's language (Spanish ones the browser loads before it draws anything).
 */
export function pageChunks(manifest: Manifest | null, page: Page, language: "en" | "es" = "en"): string[] {
  if (!manifest) return [];
  const loadedByEntry = new Set<string>();
  const walk = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    manifest[key]!.imports?.forEach((child) => walk(child, into));
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key, loadedByEntry);
  const needed = new Set<string>();
  walk(PAGE_SOURCES[page], needed);
  if (language === "es") walk("src/i18n/es.ts", needed);
  for (const pack of textPacksOf(page)) walk(`src/i18n/${pack}-${language}.ts`, needed);
  return [...needed].filter((key) => !loadedByEntry.has(key)).map((key) => `/${manifest[key]!.file}`);
}

/**
 * Link tags that start, while the HTML is still arriving, what the page would otherwise only ask for after
 * the main script has run: its lazy chunks and its main picture.
 */
export function preloadTags(
  manifest: Manifest | null,
  page: Page,
  { image, language = "en" }: { image?: string; language?: "en" | "es" } = {},
): string {
  // crossorigin: module scripts load in CORS mode; the preload must match to be reused.
  const chunks = pageChunks(manifest, page, language).map(
    (file) => `<link rel="modulepreload" crossorigin href="${escapeXml(file)}">`,
  );
  const picture = image
    ? [`<link rel="preload" as="image" href="${escapeXml(image)}" fetchpriority="high">`]
    : [];
  return [...chunks, ...picture].join("");
}

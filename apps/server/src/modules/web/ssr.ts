import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

export type Language = "en" | "es";

/** apps/web/src/entry-server.tsx, as `npm run build` leaves it in apps/web/dist-ssr. */
export interface StorefrontRenderer {
  render(request: { url: string; language: Language; replies: Record<string, unknown> }): string;
}

/** The storefront's server renderer, or null when the web app is not built (the shell alone is served). */
export async function loadRenderer(webDist: string): Promise<StorefrontRenderer | null> {
  const file = join(dirname(webDist), "dist-ssr", "entry-server.js");
  if (!existsSync(file)) return null;
  return (await import(pathToFileURL(file).href)) as StorefrontRenderer;
}

/**
 * The language the browser will choose (apps/web/src/i18n): the saved choice, mirrored in the `lang` cookie,
 * else the browser's own language. A page rendered in another one is drawn again by the browser.
 */
export function requestLanguage(cookie: string | undefined, acceptLanguage: string | undefined): Language {
  const saved = /(?:^|;\s*)lang=(en|es)(?:;|$)/.exec(cookie ?? "")?.[1];
  if (saved === "en" || saved === "es") return saved;
  return acceptLanguage?.trim().toLowerCase().startsWith("es") ? "es" : "en";
}

/**
 * What a first visit to each storefront route downloads, read from the web build's Vite manifest: the
 * scripts index.html loads, their static imports, and the route's lazy page chunk with its static imports.
 * Shared by the budget check in `npm test` (scripts/web-budget.ts) and `npm run bench:web`.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import { PAGE_TEXTS } from "../apps/web/src/app/page-texts";

/** One chunk of Vite's build manifest (dist/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/**
 * The storefront's budget: gzipped (level 9) JavaScript of a first visit to any storefront route. 120 KB
 * (ADR 0006) until issue 41's variant pickers and facet reading, 123 KB while they are trimmed (ADR 0025).
 */
export const JS_BUDGET_KB = 123;

/**
 * Every storefront route and the page component apps/web/src/app/router.tsx renders for it, as the
 * manifest names its source. A route whose page is renamed fails the check until this follows. The routes
 * its lists are held to the budget; the account's and the password pages' forms are weighed and shown.
 */
export const STOREFRONT_ROUTES: readonly { path: string; page: string; budgeted: boolean }[] = [
  { path: "/", page: "src/features/catalog/HomePage.tsx", budgeted: true },
  { path: "/products", page: "src/features/catalog/ProductListPage.tsx", budgeted: true },
  { path: "/product/:id", page: "src/features/product/ProductPage.tsx", budgeted: true },
  { path: "/compare", page: "src/features/compare/ComparePage.tsx", budgeted: true },
  { path: "/cart", page: "src/features/cart/CartPage.tsx", budgeted: true },
  { path: "/wishlist", page: "src/features/cart/WishlistPage.tsx", budgeted: true },
  { path: "/login", page: "src/features/auth/LoginPage.tsx", budgeted: true },
  { path: "/purchases", page: "src/features/account/PurchasesPage.tsx", budgeted: true },
  { path: "/purchases/:number", page: "src/features/account/OrderPage.tsx", budgeted: true },
  { path: "/purchase", page: "src/features/checkout/CheckoutPage.tsx", budgeted: true },
  { path: "/purchase/success", page: "src/features/checkout/PaymentResultPage.tsx", budgeted: true },
  { path: "/purchase/failure", page: "src/features/checkout/PaymentResultPage.tsx", budgeted: true },
  { path: "/profiles", page: "src/features/about/AboutPage.tsx", budgeted: true },
  { path: "/no-such-page", page: "src/components/NotFoundPage.tsx", budgeted: true },
  { path: "/user", page: "src/features/account/ProfilePage.tsx", budgeted: false },
  { path: "/password/forgot", page: "src/features/auth/ForgotPasswordPage.tsx", budgeted: false },
  { path: "/password/reset", page: "src/features/auth/ResetPasswordPage.tsx", budgeted: false },
  { path: "/user/email/confirm", page: "src/features/account/EmailLinkPage.tsx", budgeted: false },
  { path: "/user/email/revert", page: "src/features/account/EmailLinkPage.tsx", budgeted: false },
];

/** Written by the build beside the manifest: the chunk files that hold back-office code. */
export const ADMIN_CHUNKS_FILE = ".vite/admin-chunks.json";

/** The manifest keys of `keys` and of everything they import statically, dependencies included. */
function staticClosure(manifest: Manifest, keys: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    manifest[key]!.imports?.forEach(visit);
  };
  for (const key of keys) visit(key);
  return seen;
}

/** The script files (as "/assets/…") that index.html loads, in its order. */
export function htmlScripts(html: string): string[] {
  const files = [...html.matchAll(/(?:src|href)="(\/[^"]+\.js)"/g)].map((match) => match[1]!);
  return [...new Set(files)];
}

/** The English chunks of the text packs the router loads with a page (apps/web/src/app/page-texts.ts). */
export function pageTextSources(page: string): string[] {
  const name = basename(page).replace(/\.tsx$/, "");
  const packs: readonly string[] = PAGE_TEXTS[name as keyof typeof PAGE_TEXTS] ?? [];
  return packs.map((pack) => `src/i18n/${pack}-en.ts`);
}

/**
 * The files a first visit to a page loads: what index.html loads (Rolldown may merge the entry module into
 * a shared chunk the manifest doesn't flag as an entry, so the HTML is the source of truth), their static
 * imports, and the page's chunk and its texts' chunks with their static imports.
 */
export function routeScripts(manifest: Manifest, html: string, page: string): string[] {
  const chunks = [page, ...pageTextSources(page)];
  for (const chunk of chunks)
    if (!manifest[chunk]) throw new Error(`${chunk} is not a chunk of the build: is it still loaded lazily?`);
  const loadedByHtml = new Set(htmlScripts(html));
  const entryKeys = Object.keys(manifest).filter((key) => loadedByHtml.has(`/${manifest[key]!.file}`));
  const keys = staticClosure(manifest, [...entryKeys, ...chunks]);
  const files = [...keys].map((key) => `/${manifest[key]!.file}`);
  return [...new Set([...loadedByHtml, ...files])].filter((file) => file.endsWith(".js"));
}

/**
 * The chunks holding back-office code (apps/web/src/features/admin), as the build lists them
 * (apps/web/vite.config.ts writes .vite/admin-chunks.json): a shared chunk has no source in the manifest,
 * so only the build can tell which modules it holds.
 */
export function adminChunks(dist: string): Set<string> {
  const file = join(dist, ADMIN_CHUNKS_FILE);
  if (!existsSync(file))
    throw new Error(`${file} is missing: build the web app with apps/web/vite.config.ts`);
  return new Set((JSON.parse(readFileSync(file, "utf8")) as string[]).map((name) => `/${name}`));
}

export interface RouteWeight {
  path: string;
  budgeted: boolean;
  scripts: { file: string; kb: number }[];
  kb: number;
  adminScripts: string[];
}

/** A built file's size in KB, compressed like the build's own .gz files (apps/web/scripts/precompress.mjs). */
export function gzippedKb(dist: string, file: string): number {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
}

/** Reads a web build (apps/web/dist or a parallel one) and weighs every storefront route's first visit. */
export function weighBuild(dist: string): RouteWeight[] {
  const manifestFile = join(dist, ".vite/manifest.json");
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: build the web app first`);
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const admin = adminChunks(dist);
  return STOREFRONT_ROUTES.map(({ path, page, budgeted }) => {
    const scripts = routeScripts(manifest, html, page).map((file) => ({ file, kb: gzippedKb(dist, file) }));
    return {
      path,
      budgeted,
      scripts,
      kb: scripts.reduce((sum, script) => sum + script.kb, 0),
      adminScripts: scripts.map((script) => script.file).filter((file) => admin.has(file)),
    };
  });
}

/** What is wrong with the weights: a budgeted route over budget, or any route loading admin code. */
export function budgetProblems(weights: RouteWeight[], budgetKb = JS_BUDGET_KB): string[] {
  return weights.flatMap((route) => [
    ...(route.budgeted && route.kb > budgetKb
      ? [`${route.path}: ${route.kb.toFixed(1)} KB > ${budgetKb} KB`]
      : []),
    ...(route.adminScripts.length > 0
      ? [`${route.path} loads admin code: ${route.adminScripts.join(", ")}`]
      : []),
  ]);
}

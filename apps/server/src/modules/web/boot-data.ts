import type { FastifyInstance } from "fastify";

/**
 * What every storefront page renders from at once: the store's weekday, the header's categories (those with
 * a product for sale), the networks.
 */
export const SHARED_REPLIES = ["/store", "/categories?withProducts=true", "/networks"];

/** Every category: the home page's carousel draw and the listing's heading (an empty category has a name too). */
export const ALL_CATEGORIES = "/categories";

/**
 * The API replies a page renders first, embedded in its HTML as a JSON data block (never executed, so the
 * Content-Security-Policy is unaffected). The storefront reads them synchronously (apps/web/src/api/
 * boot-data.ts), so the first paint already shows the banner or the product instead of skeletons, with no
 * request round trip after the script has loaded. Each reply comes from the API itself through inject():
 * the same validation, serialisation and anonymous cache as a browser's request.
 */
export async function bootReplies(app: FastifyInstance, paths: string[]): Promise<Record<string, unknown>> {
  const replies: Record<string, unknown> = {};
  await Promise.all(
    paths.map(async (path) => {
      const response = await app.inject({ method: "GET", url: `/api${path}` });
      if (response.statusCode === 200) replies[path] = response.json();
    }),
  );
  return replies;
}

/**
 * A listing's reply as its page embeds it: without the products' descriptions, which no card shows and which
 * were most of /products' HTML (17 KB compressed with them, 11 KB without: the page now arrives in the first
 * round trip of a slow connection). The browser asks for the whole reply once it has drawn the page, and
 * waits for a product's own when a guest lists it before then (apps/web/src/api/boot-data.ts).
 */
export function briefListing(
  replies: Record<string, unknown>,
  path: string,
): { replies: Record<string, unknown>; brief: string[] } {
  const list = replies[path] as { products: { description: string }[] } | undefined;
  if (!list) return { replies, brief: [] };
  const products = list.products.map((product) => ({ ...product, description: "" }));
  return { replies: { ...replies, [path]: { ...list, products } }, brief: [path] };
}

/** `brief`: the paths whose replies are embedded in part, which the browser fetches again. */
export function bootDataTag(replies: Record<string, unknown>, brief: string[] = []): string {
  const json = JSON.stringify(brief.length ? { replies, brief } : { replies });
  // "<" is escaped so no reply text can close the element.
  return `<script type="application/json" id="boot-data">${json.replace(/</g, "\\u003c")}</script>`;
}

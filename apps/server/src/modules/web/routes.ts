import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { and, asc, isNull, sql } from "drizzle-orm";
import { priceToday } from "@voltio/domain/pricing";
import { weekdayIn } from "@voltio/domain/weekday";
import { idSchema } from "@voltio/domain/http";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import type { CatalogCache } from "../catalog/cache";
import { categories, products } from "../../db/schema";
import { compressFor } from "../../http/encoding";
import { escapeXml } from "../../http/escape";
import { styleNonce } from "../../http/security-headers";
import { catalogReference } from "../catalog/reference";
import { getProduct } from "../catalog/service";
import { listingApiPath, listingFilters, searchTooLong } from "@voltio/domain/catalog";
import { listingFacetsPath } from "@voltio/domain/listing";
import { ALL_CATEGORIES, bootDataTag, bootReplies, briefListing, SHARED_REPLIES } from "./boot-data";
import { loadManifest, preloadTags, type Page } from "./preload";
import {
  categoryNotFoundHead,
  listingHead,
  pageHead,
  productHead,
  productNotFoundHead,
  searchTooLongHead,
  type PageHead,
} from "./seo";
import type { Shell } from "./shell";
import { loadRenderer, requestLanguage } from "./ssr";

/**
 * What the pages served here render from beyond SHARED_REPLIES. Any other page gets the sales, which price the
 * cart and wishlist of a page the browser draws (and the header's previews): with them at hand the lists show
 * at once, not a skeleton first.
 */
const OWN_REPLIES: Partial<Record<Page, string[]>> = {
  home: [ALL_CATEGORIES, "/sale"],
  login: ["/auth/options"],
};

interface PageReply {
  head: PageHead;
  status?: number;
  /** A storefront page is rendered on the server, with its chunks preloaded; other paths get the shell. */
  page: Page | null;
  /** API paths whose replies the page renders from (boot-data.ts). */
  replies: string[];
  /** A listing's API path: embedded too, without its products' descriptions (briefListing). */
  listing?: string;
  image?: string;
}

/** Paths the SPA draws; anything else gets its not-found page with a real 404 status. */
const SPA_ROUTES: RegExp[] = [
  /^\/$/,
  /^\/products$/,
  /^\/product\/[^/]+$/,
  /^\/compare$/,
  /^\/login$/,
  /^\/password\/(forgot|reset)$/,
  /^\/user$/,
  /^\/user\/email\/(confirm|revert)$/,
  /^\/purchases$/i,
  /^\/purchases\/[^/]+$/i,
  /^\/wishlist$/i,
  /^\/cart$/i,
  /^\/purchase(\/success|\/failure)?$/,
  /^\/profiles$/,
  /^\/admin(\/.*)?$/,
];

/**
 * Serves the built web app: hashed assets (precompressed .br/.gz) and, for every other non-/api path, the
 * page with its title and metadata filled in: storefront pages rendered on the server (ssr.ts), the others
 * as the shell the browser draws. Also /robots.txt and /sitemap.xml.
 */
export interface WebRoutesDeps {
  db: Db;
  config: Pick<Config, "webDist" | "publicUrl" | "storeTimeZone">;
  /** Page views read categories and sales from the catalogue's snapshot. */
  catalogCache: CatalogCache;
  /** The clock the store's weekday is read by (the JSON-LD price); tests set the day. */
  now?: () => Date;
}

export function webRoutes(
  { config, db, catalogCache, now = () => new Date() }: WebRoutesDeps,
  shell: Shell,
): FastifyPluginAsync {
  return async (app) => {
    if (shell.built) {
      await app.register(fastifyStatic, {
        root: config.webDist,
        prefix: "/",
        preCompressed: true,
        wildcard: false,
        index: false,
        setHeaders(res, path) {
          if (path.includes("/assets/")) res.header("cache-control", "public, max-age=31536000, immutable");
        },
      });
    }

    const manifest = shell.built ? loadManifest(config.webDist) : null;
    const renderer = shell.built ? await loadRenderer(config.webDist) : null;

    const sendPage = async (request: FastifyRequest, reply: FastifyReply, options: PageReply) => {
      const { head, status = 200, page, image, listing } = options;
      const fetched = await bootReplies(app, listing ? [...options.replies, listing] : options.replies);
      // The page is rendered from the brief listing too, so the browser hydrates the same cards.
      const { replies, brief } = listing ? briefListing(fetched, listing) : { replies: fetched, brief: [] };
      const language = requestLanguage(request.headers.cookie, request.headers["accept-language"]);
      const preloads =
        (page ? preloadTags(manifest, page, { image, language }) : "") + bootDataTag(replies, brief);
      // The style elements the app adds as it runs (a dialog's scroll lock) carry this reply's nonce: the app
      // reads it where Vite's loader does too.
      const nonce = `<meta property="csp-nonce" nonce="${styleNonce(reply)}">`;
      // Function replacements: rendered text may contain "$&" and the like.
      let html = shell.html
        .replace(/<title>.*?<\/title>/s, "")
        .replace("<!--head-->", () => nonce + head.html + preloads);
      // Every page, the shell the browser draws (cart, admin…) too, names the language it will be read in.
      html = html.replace('<html lang="en">', () => `<html lang="${language}">`);
      if (renderer && page) {
        try {
          const body = renderer.render({ url: request.url, language, replies });
          html = html.replace(
            '<div id="root"></div>',
            () => `<div id="root" data-language="${language}">${body}</div>`,
          );
        } catch (error) {
          // The browser draws the page itself: a rendering bug costs speed, never the page.
          request.log.error({ err: error, url: request.url }, "server render failed");
        }
      }
      // Pages are rendered per request, so they are compressed per request (assets come precompressed).
      const { encoding, body } = compressFor(request.headers["accept-encoding"], html);
      if (encoding) reply.header("content-encoding", encoding);
      return reply
        .code(status)
        .header("cache-control", "no-cache")
        .header("vary", "Accept-Encoding, Cookie, Accept-Language")
        .type("text/html; charset=utf-8")
        .send(body);
    };

    /** Storefront pages whose chunks and data the HTML starts loading (preload.ts). */
    const pageOf = (path: string): Page | null =>
      path === "/" ? "home" : path === "/profiles" ? "about" : path === "/login" ? "login" : null;

    app.get("/robots.txt", async (_request, reply) =>
      reply
        .type("text/plain")
        .send(`User-agent: *\nDisallow: /admin\nDisallow: /api/\nSitemap: ${config.publicUrl}/sitemap.xml\n`),
    );

    app.get("/sitemap.xml", async (_request, reply) => {
      const [categoryRows, productRows] = await Promise.all([
        db.select({ id: categories.id }).from(categories).orderBy(asc(categories.id)),
        db
          .select({ id: products.id, updatedAt: products.updatedAt })
          .from(products)
          .where(and(isNull(products.deletedAt), sql`${products.stock} > 0`))
          .orderBy(asc(products.id)),
      ]);
      const url = (path: string, lastmod?: Date) =>
        `<url><loc>${escapeXml(config.publicUrl + path)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString().slice(0, 10)}</lastmod>` : ""}</url>`;
      const body = [
        `<?xml version="1.0" encoding="UTF-8"?>`,
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`,
        url("/"),
        url("/products?offset=1"),
        url("/profiles"),
        ...categoryRows.map((c) => url(`/products?categoryId=${c.id}&offset=1`)),
        ...productRows.map((p) => url(`/product/${p.id}`, p.updatedAt)),
        `</urlset>`,
      ].join("\n");
      return reply.type("application/xml").send(body);
    });

    app.get("/products", async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const params = new URLSearchParams(request.url.split("?")[1] ?? "");
      const { categoryId, search } = listingFilters(params);
      const offset = Number(query.offset);
      // The catalogue's cached snapshot of categories: a page view costs no query of its own for the name.
      const { categoryNames } = await catalogReference(db, catalogCache.reference);
      const categoryName = categoryId === undefined ? undefined : categoryNames.get(categoryId);
      // A category id that names no category is a page that does not exist: said with a 404 (and noindex).
      const unknownCategory = categoryId !== undefined && categoryName === undefined;
      const head = unknownCategory
        ? categoryNotFoundHead(request.url, config.publicUrl)
        : searchTooLong(search)
          ? searchTooLongHead(config.publicUrl)
          : listingHead(
              {
                categoryId: categoryName ? categoryId : undefined,
                categoryName,
                offset: Number.isInteger(offset) ? offset : undefined,
                search: query.search?.trim() || undefined,
              },
              config.publicUrl,
            );
      // The page's products too, under the API path the browser would ask (listingApiPath), so the grid is
      // in the first paint and hydration keeps it: no skeleton on a server-rendered listing.
      const listing = unknownCategory ? undefined : listingApiPath(params);
      // The filter panel's counts per value (issue 41) are in the first paint too.
      const facets = unknownCategory || searchTooLong(search) ? [] : [listingFacetsPath(params)];
      return sendPage(request, reply, {
        head,
        status: unknownCategory ? 404 : 200,
        page: "listing",
        replies: [...SHARED_REPLIES, ALL_CATEGORIES, ...facets],
        listing,
      });
    });

    app.get("/product/:id", async (request, reply) => {
      const parsed = idSchema.safeParse((request.params as { id: string }).id);
      const id = parsed.data;
      const product = id === undefined ? null : await getProduct(db, id, catalogCache.reference);
      if (!product) {
        const path = request.url.split("?")[0] ?? request.url;
        const head = productNotFoundHead(path, config.publicUrl);
        return sendPage(request, reply, { head, status: 404, page: "product", replies: SHARED_REPLIES });
      }
      // The structured price is the one the page shows: today's sale on every unit included.
      const { globalSales } = await catalogReference(db, catalogCache.reference);
      const today = weekdayIn(config.storeTimeZone, now());
      const { unitCents } = priceToday(product, globalSales, today);
      // Each variant's price today: a sale discounts the sale-eligible ones only (apps/web variant-choice.ts).
      const noSales = { productSales: [], categorySales: [] };
      const variantCents = new Map(
        product.variants.map((variant) => [
          variant.id,
          variant.saleEligible
            ? priceToday({ price: variant.price, sales: product.sales }, globalSales, today).unitCents
            : priceToday({ price: variant.price, sales: noSales }, [], today).unitCents,
        ]),
      );
      return sendPage(request, reply, {
        head: productHead(product, config.publicUrl, unitCents, variantCents),
        page: "product",
        replies: [...SHARED_REPLIES, "/sale", `/products/${id}`],
        image: product.images[0]?.url,
      });
    });

    // Compare (issue 41): the products named by ?ids= side by side, in the first paint; without ids the
    // browser draws the list it keeps.
    app.get("/compare", async (request, reply) => {
      // Read as the page reads it (apps/web components/compare-list.ts compareIdsOf): the same API path.
      const ids = [
        ...new Set(
          (new URLSearchParams(request.url.split("?")[1] ?? "").get("ids") ?? "")
            .split(",")
            .map((part) => Number(part.trim()))
            .filter((id) => Number.isInteger(id) && id > 0),
        ),
      ].slice(0, 4);
      return sendPage(request, reply, {
        head: pageHead("/compare", config.publicUrl),
        page: "compare",
        replies: [...SHARED_REPLIES, "/sale", ...(ids.length > 0 ? [`/compare?ids=${ids.join(",")}`] : [])],
      });
    });

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split("?")[0] ?? "/";
      if (
        path.startsWith("/api/") ||
        path === "/api" ||
        (request.method !== "GET" && request.method !== "HEAD")
      ) {
        return reply.code(404).send({ error: "Not Found" });
      }
      const known = SPA_ROUTES.some((route) => route.test(path));
      const page = known ? pageOf(path) : "notFound";
      return sendPage(request, reply, {
        head: pageHead(path, config.publicUrl),
        status: known ? 200 : 404,
        page,
        replies: [...SHARED_REPLIES, ...((page && OWN_REPLIES[page]) ?? ["/sale"])],
      });
    });
  };
}

import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { bestSale, discountedUnitCents } from "@voltio/domain/discount";
import { toCents } from "@voltio/domain/money";
import { weekdayIn } from "@voltio/domain/weekday";
import type { AppDeps } from "../../app";
import { categories, products } from "../../db/schema";
import { escapeXml } from "../../http/escape";
import { getProduct, listGlobalSales } from "../catalog/service";
import { bootDataTag, SHARED_REPLIES } from "./boot-data";
import { loadManifest, preloadTags, type Page } from "./preload";
import { listingHead, pageHead, productHead, productNotFoundHead, type PageHead } from "./seo";
import type { Shell } from "./shell";

/** Paths the SPA draws; anything else gets its not-found page with a real 404 status. */
const SPA_ROUTES: RegExp[] = [
  /^\/$/,
  /^\/products$/,
  /^\/product\/[^/]+$/,
  /^\/login$/,
  /^\/user$/,
  /^\/purchases$/i,
  /^\/wishlist$/i,
  /^\/cart$/i,
  /^\/purchase(\/success|\/failure)?$/,
  /^\/profiles$/,
  /^\/admin(\/.*)?$/,
];

/**
 * Serves the built SPA: hashed assets (precompressed .br/.gz) and, for every other non-/api path, the HTML
 * shell with the page's title and metadata filled in. Also /robots.txt and /sitemap.xml.
 */
export function webRoutes({ config, db, catalogCache }: AppDeps, shell: Shell): FastifyPluginAsync {
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
    const sendShell = (reply: FastifyReply, head: PageHead, status = 200, preloads = "") =>
      reply
        .code(status)
        .header("cache-control", "no-cache")
        .type("text/html; charset=utf-8")
        .send(shell.html.replace(/<title>.*?<\/title>/s, "").replace("<!--head-->", head.html + preloads));

    /** Storefront pages whose chunks and data the HTML starts loading (preload.ts). */
    const pageOf = (path: string): Page | null =>
      path === "/" ? "home" : path === "/profiles" ? "about" : null;

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
      const categoryId = Number(query.categoryId);
      const offset = Number(query.offset);
      const [category] =
        Number.isInteger(categoryId) && categoryId > 0 && categoryId <= 2_147_483_647
          ? await db.select({ name: categories.name }).from(categories).where(eq(categories.id, categoryId))
          : [];
      const head = listingHead(
        {
          categoryId: category ? categoryId : undefined,
          categoryName: category?.name,
          offset: Number.isInteger(offset) ? offset : undefined,
          search: query.search?.trim() || undefined,
        },
        config.publicUrl,
      );
      const boot = await bootDataTag(app, SHARED_REPLIES);
      return sendShell(reply, head, 200, preloadTags(manifest, "listing") + boot);
    });

    app.get("/product/:id", async (request, reply) => {
      const id = Number((request.params as { id: string }).id);
      const product =
        Number.isInteger(id) && id > 0 && id <= 2_147_483_647
          ? await getProduct(db, id, catalogCache.reference)
          : null;
      if (!product) {
        const path = request.url.split("?")[0] ?? request.url;
        const preloads = preloadTags(manifest, "product") + (await bootDataTag(app, SHARED_REPLIES));
        return sendShell(reply, productNotFoundHead(path, config.publicUrl), 404, preloads);
      }
      // The structured price is the one the page shows: today's sale on every unit included.
      const sale = bestSale(product.sales, await listGlobalSales(db), weekdayIn(config.storeTimeZone));
      const priceCents =
        sale && sale.productAmount === 0
          ? discountedUnitCents(toCents(product.price), sale)
          : toCents(product.price);
      const preloads =
        preloadTags(manifest, "product", product.images[0]?.url) +
        (await bootDataTag(app, [...SHARED_REPLIES, "/sale", `/products/${id}`]));
      return sendShell(reply, productHead(product, config.publicUrl, priceCents), 200, preloads);
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
      const preloads =
        (page ? preloadTags(manifest, page) : "") +
        (await bootDataTag(app, page === "home" ? [...SHARED_REPLIES, "/sale"] : SHARED_REPLIES));
      return sendShell(reply, pageHead(path, config.publicUrl), known ? 200 : 404, preloads);
    });
  };
}

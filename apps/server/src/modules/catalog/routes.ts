import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  categoryQuerySchema,
  categorySchema,
  networksSchema,
  listingQueryOf,
  productListQuerySchema,
  productListSchema,
  productSchema,
  saleQuerySchema,
  saleSchema,
  storeInfoSchema,
} from "@voltio/domain/catalog";
import { errorSchema, idParamSchema } from "@voltio/domain/http";
import { compareQuerySchema, compareReplySchema } from "@voltio/domain/compare";
import { weekdayIn } from "@voltio/domain/weekday";
import type { Db } from "../../db/client";
import { rawQuery } from "../../db/raw";
import { NotFound } from "../../errors";
import type { Identify } from "../../http/access";
import type { PaymentProviderName } from "@voltio/domain/payments";
import { replyKey, type CatalogCache } from "./cache";
import { getNetworks, listCategories, listSales } from "./reference";
import { getProduct, listProducts, relatedProducts } from "./service";
import { compareProducts } from "./compare";

export interface CatalogRoutesDeps {
  db: Db;
  cache: CatalogCache;
  /** Only the admin's listing with out-of-stock products looks at who is asking. */
  identify: Identify;
  storeTimeZone: string;
  /** Who takes card payments: the checkout calls /{provider}/pay. */
  paymentProvider: PaymentProviderName;
  /** The clock the store's weekday is read by; tests set the day. */
  now?: () => Date;
}

/** The read side of the catalogue (docs/product-rules.md §10). Replies are cached until the catalogue changes. */
export function catalogRoutes({
  db,
  cache,
  identify,
  storeTimeZone,
  paymentProvider,
  now = () => new Date(),
}: CatalogRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // The search index is built once the server is up, not by the first shopper's search.
    app.addHook("onReady", async () => {
      void cache.search.get(rawQuery(db)).catch((error: Error) => {
        app.log.warn(`The search index will be built by the first search: ${error.message}`);
      });
    });
    /**
     * Sends the cached JSON for this key, or computes, caches and sends it. Keys come from the parsed
     * input (cache.ts replyKey), so the cache holds one entry per distinct question, whatever the URL said.
     */
    const cached = async (reply: FastifyReply, key: string, compute: () => Promise<unknown>) => {
      const { body, from } = await cache.reply(key, compute);
      reply.type("application/json; charset=utf-8");
      if (cache.replies.enabled) reply.header("x-cache", from);
      return reply.send(body);
    };

    app.get(
      "/products",
      {
        config: { access: "public" },
        schema: {
          tags: ["catalogue"],
          summary: "List products: search, filter, sort and page",
          querystring: productListQuerySchema,
          response: { 200: productListSchema, 400: errorSchema },
        },
      },
      async (request, reply) => {
        // Out-of-stock products are for admins only; anyone else asking gets the public listing.
        const includeOutOfStock =
          request.query.includeOutOfStock === true && (await identify(request))?.rol === "admin";
        const query = { ...listingQueryOf(request.query), includeOutOfStock };
        return cached(reply, replyKey("products", includeOutOfStock ? "admin" : "public", query), () =>
          listProducts(db, query, {
            includeOutOfStock,
            counts: cache.counts,
            facets: cache.facets,
            reference: cache.reference,
            search: cache.search,
          }),
        );
      },
    );

    app.get(
      "/products/:id",
      {
        config: { access: "public" },
        schema: {
          tags: ["catalogue"],
          summary: "One product, also when out of stock",
          params: idParamSchema,
          response: { 200: productSchema, 400: errorSchema, 404: errorSchema },
        },
      },
      async (request, reply) =>
        cached(reply, replyKey("product", "public", request.params), async () => {
          const product = await getProduct(db, request.params.id, cache.reference);
          if (!product) throw new NotFound("Product Not Found!");
          return product;
        }),
    );

    app.get(
      "/products/:id/related",
      {
        config: { access: "public" },
        schema: {
          tags: ["catalogue"],
          summary:
            "Products related to one: its narrowest category's first, then its brand's, then those most alike in specifications",
          params: idParamSchema,
          response: { 200: productListSchema.pick({ products: true, globalSales: true }), 400: errorSchema },
        },
      },
      async (request, reply) =>
        cached(reply, replyKey("related", "public", request.params), () =>
          relatedProducts(db, request.params.id, cache.reference),
        ),
    );

    app.get(
      "/compare",
      {
        config: { access: "public" },
        schema: {
          tags: ["catalogue"],
          summary:
            "Up to 4 products of one category side by side: their specifications, what differs, what is best",
          querystring: compareQuerySchema,
          response: { 200: compareReplySchema, 400: errorSchema, 404: errorSchema },
        },
      },
      async (request, reply) =>
        cached(reply, replyKey("compare", "public", request.query), () =>
          compareProducts(db, request.query.ids, cache.reference),
        ),
    );

    app.get(
      "/categories",
      {
        config: { access: "public" },
        schema: {
          tags: ["catalogue"],
          summary: "Categories, optionally filtered by name and to those with a product for sale",
          querystring: categoryQuerySchema,
          response: { 200: z.array(categorySchema), 400: errorSchema },
        },
      },
      async (request, reply) =>
        cached(reply, replyKey("categories", "public", request.query), () =>
          listCategories(db, request.query.search, { withProducts: request.query.withProducts }),
        ),
    );

    app.get(
      "/networks",
      {
        config: { access: "public" },
        schema: {
          tags: ["catalogue"],
          summary: "The store's social links",
          response: { 200: z.array(networksSchema) },
        },
      },
      async (_request, reply) => cached(reply, replyKey("networks", "public", {}), () => getNetworks(db)),
    );

    app.get(
      "/store",
      {
        config: { access: "public" },
        schema: {
          tags: ["catalogue"],
          summary:
            "The store's currency, time zone, today's weekday there (which sales run) and payment provider",
          response: { 200: storeInfoSchema },
        },
      },
      // Not cached: the weekday changes at the store's midnight.
      async () => ({
        name: "Voltio",
        currency: "USD" as const,
        timeZone: storeTimeZone,
        today: weekdayIn(storeTimeZone, now()),
        paymentProvider,
      }),
    );

    app.get(
      "/sale",
      {
        config: { access: "public" },
        schema: {
          tags: ["catalogue"],
          summary: "Sales with their categories and products",
          querystring: saleQuerySchema,
          response: { 200: z.array(saleSchema), 400: errorSchema },
        },
      },
      async (request, reply) =>
        cached(reply, replyKey("sales", "public", request.query), () => listSales(db, request.query.limit)),
    );
  };
}

import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  categoryQuerySchema,
  categorySchema,
  errorSchema,
  idParamSchema,
  networksSchema,
  productListQuerySchema,
  productListSchema,
  productSchema,
  saleQuerySchema,
  saleSchema,
  storeInfoSchema,
} from "@voltio/domain/catalog";
import type { AppDeps } from "../../app";
import { notFound } from "../../http/errors";
import { readCaller } from "../auth/access-token";
import { weekdayIn } from "@voltio/domain/weekday";
import { getNetworks, getProduct, listCategories, listProducts, listSales } from "./service";

/** The read side of the catalogue (DESIGN.md §5). Anonymous replies are cached until the catalogue changes. */
export function catalogRoutes({ db, config, catalogCache }: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const cacheable = (request: FastifyRequest) =>
      catalogCache.replies.enabled &&
      request.method === "GET" &&
      !request.routeOptions.config.noCache &&
      !request.url.includes("includeOutOfStock=true");
    // A cached reply is the same JSON for every caller; only admin-only variants skip the cache.
    app.addHook("onRequest", async (request, reply) => {
      if (!cacheable(request)) return;
      const body = catalogCache.replies.get(request.url);
      if (body !== undefined) {
        return reply.header("x-cache", "hit").type("application/json; charset=utf-8").send(body);
      }
    });
    app.addHook("onSend", async (request, reply, payload) => {
      if (
        request.method === "GET" &&
        reply.statusCode === 200 &&
        typeof payload === "string" &&
        reply.getHeader("x-cache") === undefined &&
        cacheable(request)
      ) {
        catalogCache.replies.set(request.url, payload);
        reply.header("x-cache", "miss");
      }
      return payload;
    });

    app.get(
      "/products",
      {
        schema: {
          tags: ["catalogue"],
          summary: "List products: search, filter, sort and page",
          querystring: productListQuerySchema,
          response: { 200: productListSchema, 400: errorSchema },
        },
      },
      async (request) => {
        let includeOutOfStock = false;
        if (request.query.includeOutOfStock) {
          const caller = await readCaller(request, db, config.jwtSecret);
          includeOutOfStock = caller?.rol === "admin";
        }
        return listProducts(db, request.query, {
          includeOutOfStock,
          counts: catalogCache.counts,
          reference: catalogCache.reference,
        });
      },
    );

    app.get(
      "/products/:id",
      {
        schema: {
          tags: ["catalogue"],
          summary: "One product, also when out of stock",
          params: idParamSchema,
          response: { 200: productSchema, 400: errorSchema, 404: errorSchema },
        },
      },
      async (request) => {
        const product = await getProduct(db, request.params.id, catalogCache.reference);
        if (!product) throw notFound("Product Not Found!");
        return product;
      },
    );

    app.get(
      "/categories",
      {
        schema: {
          tags: ["catalogue"],
          summary: "Categories, optionally filtered by name",
          querystring: categoryQuerySchema,
          response: { 200: z.array(categorySchema), 400: errorSchema },
        },
      },
      async (request) => listCategories(db, request.query.search),
    );

    app.get(
      "/networks",
      {
        schema: {
          tags: ["catalogue"],
          summary: "The store's social links",
          response: { 200: z.array(networksSchema) },
        },
      },
      async () => getNetworks(db),
    );

    app.get(
      "/store",
      {
        schema: {
          tags: ["catalogue"],
          summary: "The store's currency, time zone and today's weekday there (which sales run)",
          response: { 200: storeInfoSchema },
        },
        // Not cached: the weekday changes at the store's midnight.
        config: { noCache: true },
      },
      async () => ({
        name: "Voltio",
        currency: "USD" as const,
        timeZone: config.storeTimeZone,
        today: weekdayIn(config.storeTimeZone),
      }),
    );

    app.get(
      "/sale",
      {
        schema: {
          tags: ["catalogue"],
          summary: "Sales with their categories and products",
          querystring: saleQuerySchema,
          response: { 200: z.array(saleSchema), 400: errorSchema },
        },
      },
      async (request) => listSales(db, request.query.limit),
    );
  };
}

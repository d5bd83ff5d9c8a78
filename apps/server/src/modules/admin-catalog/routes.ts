import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  productInputSchema,
  saleDeleteQuerySchema,
  saleInputSchema,
  saleUpdateSchema,
} from "@voltio/domain/admin";
import { productSchema, saleSchema } from "@voltio/domain/catalog";
import { variantParamsSchema, variantsInputSchema } from "@voltio/domain/catalog-structure";
import { errorSchema, idParamSchema, messageReplySchema } from "@voltio/domain/http";
import { z } from "zod";
import type { Db } from "../../db/client";
import { NotFound } from "../../errors";
import { signedIn } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import type { TtlCache } from "../catalog/ttl-cache";
import { getSale, type CatalogReference } from "../catalog/reference";
import { getProduct } from "../catalog/service";
import { PRODUCT_NOT_FOUND, createProduct, deleteProduct, updateProduct } from "./products";
import { SALE_NOT_FOUND, createSale, deleteSale, updateSale } from "./sales";
import { replaceVariants, retireVariant } from "./variants";
import { CsvRefused, exportProductsCsv, importProductsCsv } from "./csv";

export interface AdminCatalogRoutesDeps {
  db: Db;
  /** The catalogue's categories and sales snapshot: replies are built with it, as GET /products does. */
  reference: TtlCache<CatalogReference>;
  /** This process wrote what the store shows: its next replies wait for that write's own change notification. */
  catalogWritten: () => void;
  /** After a product's stock may have risen (committed): back-in-stock requests are answered. */
  afterStockWrite?: () => Promise<unknown>;
}

/** POST, PUT, DELETE /products and /sale (admin; docs/product-rules.md §10.6). Replies as the catalogue lists them. */
export function adminCatalogRoutes({
  db,
  reference,
  catalogWritten,
  afterStockWrite,
}: AdminCatalogRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    keepRepliesPrivate(app);
    const admin = { config: { access: "admin" as const } };

    /** A changed product as GET /products/:id now shows it: the caches let go of the old one first. */
    const changedProduct = async (id: number) => {
      catalogWritten();
      const product = await getProduct(db, id, reference);
      if (!product) throw new NotFound(PRODUCT_NOT_FOUND);
      return product;
    };
    const changedSale = async (id: number) => {
      catalogWritten();
      const sale = await getSale(db, id);
      if (!sale) throw new NotFound(SALE_NOT_FOUND);
      return sale;
    };

    app.post(
      "/products",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary: "Create a product (categories by name, found or created; no images: the placeholder)",
          security: BEARER,
          body: productInputSchema,
          response: { 201: productSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request, reply) => {
        const id = await createProduct(db, signedIn(request), request.body);
        return reply.code(201).send(await changedProduct(id));
      },
    );

    app.put(
      "/products/:id",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary: "Replace a product's fields, pictures and categories",
          security: BEARER,
          params: idParamSchema,
          body: productInputSchema,
          response: { 200: productSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await updateProduct(db, signedIn(request), request.params.id, request.body);
        await afterStockWrite?.();
        return changedProduct(request.params.id);
      },
    );

    app.delete(
      "/products/:id",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary: "Retire a product: gone from the store, kept by past orders",
          security: BEARER,
          params: idParamSchema,
          response: { 200: messageReplySchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await deleteProduct(db, signedIn(request), request.params.id);
        catalogWritten();
        return { msg: "Product deleted" };
      },
    );

    app.put(
      "/products/:id/variants",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary:
            "Replace a product's options and live variants (issue 41): variants not listed are retired, never deleted",
          security: BEARER,
          params: idParamSchema,
          body: variantsInputSchema,
          response: { 200: productSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await replaceVariants(db, signedIn(request), request.params.id, request.body);
        await afterStockWrite?.();
        return changedProduct(request.params.id);
      },
    );

    app.delete(
      "/products/:id/variants/:variantId",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary: "Retire one variant of a product (409 for its last live one)",
          security: BEARER,
          params: variantParamsSchema,
          response: { 200: productSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await retireVariant(db, signedIn(request), request.params.id, request.params.variantId);
        return changedProduct(request.params.id);
      },
    );

    app.get(
      "/admin/products/export.csv",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary: "Every product with its brand, specifications and variants as CSV, a row per variant",
          security: BEARER,
          response: {
            200: {
              description:
                "A header row (product-csv.ts PRODUCT_CSV_COLUMNS, then spec:<key>), a row per variant",
              content: { "text/csv": { schema: z.string() } },
            },
            ...SIGNED_IN_ERRORS,
          },
        },
      },
      async (_request, reply) =>
        reply
          .type("text/csv; charset=utf-8")
          .header("content-disposition", 'attachment; filename="products.csv"')
          .send(await exportProductsCsv(db)),
    );

    await app.register(async (csv) => {
      // A file of several thousand rows is larger than the API's usual bodies.
      csv.addContentTypeParser(
        "text/csv",
        { parseAs: "string", bodyLimit: 20 * 1024 * 1024 },
        (_request, body, done) => done(null, body),
      );
      csv.post(
        "/admin/products/import",
        {
          ...admin,
          schema: {
            tags: ["admin"],
            summary:
              "Create and update products from CSV (the export's columns), in one transaction: any problem refuses the file",
            security: BEARER,
            body: z.string().describe("text/csv"),
            response: {
              200: z.object({ created: z.number().int(), updated: z.number().int() }),
              ...SIGNED_IN_ERRORS,
              400: errorSchema.extend({
                errors: z
                  .array(z.object({ line: z.number().int(), field: z.string(), reason: z.string() }))
                  .optional(),
              }),
            },
          },
        },
        async (request, reply) => {
          try {
            const counts = await importProductsCsv(db, signedIn(request), request.body as string);
            catalogWritten();
            await afterStockWrite?.();
            return counts;
          } catch (error) {
            if (!(error instanceof CsvRefused)) throw error;
            return reply.code(400).send({ error: error.message, errors: error.problems });
          }
        },
      );
    });

    app.post(
      "/sale",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary: "Create a sale (no categories and no products: the whole store)",
          security: BEARER,
          body: saleInputSchema,
          response: { 201: saleSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request, reply) => {
        const id = await createSale(db, signedIn(request), request.body);
        return reply.code(201).send(await changedSale(id));
      },
    );

    app.put(
      "/sale",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary: "Replace a sale's fields and bindings (its id in the body, docs/product-rules.md §10.6)",
          security: BEARER,
          body: saleUpdateSchema,
          response: { 200: saleSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        const { id, ...sale } = request.body;
        await updateSale(db, signedIn(request), id, sale);
        return changedSale(id);
      },
    );

    app.delete(
      "/sale",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary: "Delete a sale",
          security: BEARER,
          querystring: saleDeleteQuerySchema,
          response: { 200: messageReplySchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await deleteSale(db, signedIn(request), request.query.saleId);
        catalogWritten();
        return { msg: "Sale deleted" };
      },
    );
  };
}

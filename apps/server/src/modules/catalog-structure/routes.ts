import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  attributeInputSchema,
  attributeListQuerySchema,
  attributeSchema,
  brandInputSchema,
  brandSchema,
} from "@voltio/domain/catalog-structure";
import { errorSchema, idParamSchema, messageReplySchema } from "@voltio/domain/http";
import type { Db } from "../../db/client";
import { signedIn } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import {
  createAttribute,
  createBrand,
  deleteAttribute,
  deleteBrand,
  getAttribute,
  getBrand,
  listAttributes,
  listBrands,
  updateAttribute,
  updateBrand,
} from "./service";

export interface CatalogStructureRoutesDeps {
  db: Db;
  /** This process wrote what the store shows: its next replies wait for that write's own change notification. */
  catalogWritten: () => void;
}

const PUBLIC_ERRORS = { 400: errorSchema, 404: errorSchema };

/**
 * Brands and the attributes each category's products are specified by (issue 41, docs/product-rules.md
 * §2.10, §7.3.1): read by all (the storefront's filters), written by admins.
 */
export function catalogStructureRoutes({
  db,
  catalogWritten,
}: CatalogStructureRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    keepRepliesPrivate(app);
    const admin = { config: { access: "admin" as const } };
    const everyone = { config: { access: "public" as const } };
    const adminSchema = { tags: ["admin"], security: BEARER };

    app.get(
      "/brands",
      {
        ...everyone,
        schema: {
          tags: ["catalogue"],
          summary: "Every brand, by name, with how many products for sale it has",
          response: { 200: z.array(brandSchema) },
        },
      },
      async () => listBrands(db),
    );

    app.post(
      "/brands",
      {
        ...admin,
        schema: {
          ...adminSchema,
          summary: "Create a brand (its slug made from its name when not given)",
          body: brandInputSchema,
          response: { 201: brandSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request, reply) => {
        const id = await createBrand(db, signedIn(request), request.body);
        catalogWritten();
        return reply.code(201).send(await getBrand(db, id));
      },
    );

    app.put(
      "/brands/:id",
      {
        ...admin,
        schema: {
          ...adminSchema,
          summary: "Replace a brand's name, slug and logo",
          params: idParamSchema,
          body: brandInputSchema,
          response: { 200: brandSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await updateBrand(db, signedIn(request), request.params.id, request.body);
        catalogWritten();
        return getBrand(db, request.params.id);
      },
    );

    app.delete(
      "/brands/:id",
      {
        ...admin,
        schema: {
          ...adminSchema,
          summary: "Delete a brand no product names (409 while some do)",
          params: idParamSchema,
          response: { 200: messageReplySchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await deleteBrand(db, signedIn(request), request.params.id);
        catalogWritten();
        return { msg: "Brand deleted" };
      },
    );

    app.get(
      "/attributes",
      {
        ...everyone,
        schema: {
          tags: ["catalogue"],
          summary: "The attributes products are specified by: a category's, or every category's",
          querystring: attributeListQuerySchema,
          response: { 200: z.array(attributeSchema), ...PUBLIC_ERRORS },
        },
      },
      async (request) => listAttributes(db, request.query.categoryId),
    );

    app.post(
      "/attributes",
      {
        ...admin,
        schema: {
          ...adminSchema,
          summary: "Define an attribute of a category's products (its key unique in the category)",
          body: attributeInputSchema,
          response: { 201: attributeSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request, reply) => {
        const id = await createAttribute(db, signedIn(request), request.body);
        catalogWritten();
        return reply.code(201).send(await getAttribute(db, id));
      },
    );

    app.put(
      "/attributes/:id",
      {
        ...admin,
        schema: {
          ...adminSchema,
          summary: "Replace an attribute's definition (its type stays while products have values of it)",
          params: idParamSchema,
          body: attributeInputSchema,
          response: { 200: attributeSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await updateAttribute(db, signedIn(request), request.params.id, request.body);
        catalogWritten();
        return getAttribute(db, request.params.id);
      },
    );

    app.delete(
      "/attributes/:id",
      {
        ...admin,
        schema: {
          ...adminSchema,
          summary: "Delete an attribute and its products' values of it",
          params: idParamSchema,
          response: { 200: messageReplySchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await deleteAttribute(db, signedIn(request), request.params.id);
        catalogWritten();
        return { msg: "Attribute deleted" };
      },
    );
  };
}

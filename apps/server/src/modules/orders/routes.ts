import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorSchema, idParamSchema, messageReplySchema } from "@voltio/domain/http";
import {
  bulkOrderListSchema,
  bulkOrderReplySchema,
  bulkOrderSchema,
  orderAddSchema,
  orderLineSchema,
  orderListQuerySchema,
  orderUpdateReplySchema,
  orderUpdateSchema,
  orderedProductListSchema,
  orderStatusListSchema,
  listMergeReplySchema,
  listMergeSchema,
} from "@voltio/domain/orders";
import { weekdayIn } from "@voltio/domain/weekday";
import type { Db } from "../../db/client";
import { signedInShopper } from "../../http/access";
import type { TtlCache } from "../catalog/cache";
import type { CatalogReference } from "../catalog/service";
import {
  addToList,
  createBulkOrder,
  deleteOrder,
  listBulkOrders,
  listOrders,
  updateOrder,
  type PricingContext,
} from "./service";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import { mergeGuestLists } from "./merge";

const errors = {
  ...SIGNED_IN_ERRORS,
  409: errorSchema.extend({ stock: z.number().int().optional() }),
};

export interface OrderRoutesDeps {
  db: Db;
  /** The catalogue's categories-and-sales snapshot, which prices depend on. */
  reference?: TtlCache<CatalogReference>;
  storeTimeZone: string;
  /** The clock sales are read by (a sale runs on a store weekday); tests set the day. */
  now?: () => Date;
}

/**
 * The shopper's cart, wishlist and pending lines (SPEC.md §4, §7 Orders; DESIGN.md §5). Admins can't buy
 * (SPEC.md §6): they are refused on every one of these routes.
 */
export function orderRoutes({
  db,
  reference,
  storeTimeZone,
  now = () => new Date(),
}: OrderRoutesDeps): FastifyPluginAsyncZod {
  const pricing = (): PricingContext => ({ reference, weekday: weekdayIn(storeTimeZone, now()) });

  return async (app) => {
    keepRepliesPrivate(app);

    app.post(
      "/order",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary:
            "Add a product to the caller's cart or wishlist, or buy it now as a pending line (prices and titles sent are ignored)",
          security: BEARER,
          body: orderAddSchema,
          response: { 201: orderLineSchema, ...errors },
        },
      },
      async (request, reply) => {
        const caller = signedInShopper(request);
        return reply.code(201).send(await addToList(db, caller.id, request.body, pricing()));
      },
    );

    app.post(
      "/order/merge",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary:
            "Join a guest's cart and wishlist to the caller's at login: amounts added and capped at the stock, once per key",
          security: BEARER,
          body: listMergeSchema,
          response: { 200: listMergeReplySchema, ...errors },
        },
      },
      async (request) => mergeGuestLists(db, signedInShopper(request).id, request.body),
    );

    app.get(
      "/order",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary: "The caller's products with lines of these statuses, priced by the server",
          security: BEARER,
          querystring: orderListQuerySchema,
          response: { 200: orderedProductListSchema, ...errors },
        },
      },
      async (request) => listOrders(db, signedInShopper(request).id, request.query.status, pricing()),
    );

    app.put(
      "/order/:id",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary:
            "Change a cart line's amount by 1, or move a line: wishlist → cart, cart or wishlist → pending",
          security: BEARER,
          params: idParamSchema,
          body: orderUpdateSchema,
          response: { 200: orderUpdateReplySchema, ...errors },
        },
      },
      async (request) =>
        updateOrder(db, signedInShopper(request).id, request.params.id, request.body, pricing()),
    );

    app.delete(
      "/order/:id",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary: "Remove the caller's cart, wishlist or pending line",
          security: BEARER,
          params: idParamSchema,
          response: { 200: messageReplySchema, ...errors },
        },
      },
      async (request) => {
        await deleteOrder(db, signedInShopper(request).id, request.params.id);
        return { msg: "Order deleted" };
      },
    );

    app.post(
      "/order/bulk",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary: "Buy these cart lines of the caller's as one pending purchase, priced by the server",
          security: BEARER,
          body: bulkOrderSchema,
          response: { 201: bulkOrderReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        const caller = signedInShopper(request);
        return reply.code(201).send(await createBulkOrder(db, caller.id, request.body, pricing()));
      },
    );

    app.get(
      "/order/bulk",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary: "The caller's bulk orders (of these statuses), with their lines",
          security: BEARER,
          querystring: z.object({ status: orderStatusListSchema.optional() }),
          response: { 200: bulkOrderListSchema, ...errors },
        },
      },
      async (request) =>
        listBulkOrders(db, signedInShopper(request).id, { statuses: request.query.status }, pricing()),
    );
  };
}

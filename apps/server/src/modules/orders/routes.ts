import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  adminBulkStatusReplySchema,
  adminOrderExportQuerySchema,
  adminOrderListSchema,
  adminOrderPageSchema,
  adminOrderQuerySchema,
  adminStatusChangeSchema,
} from "@voltio/domain/admin-orders";
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
import { signedIn, signedInShopper } from "../../http/access";
import type { TtlCache } from "../catalog/ttl-cache";
import type { CatalogReference } from "../catalog/reference";
import { createBulkOrder, listBulkOrders } from "./bulk";
import { addToList, deleteOrder, listOrders, updateOrder, type PricingContext } from "./service";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import { mergeGuestLists } from "./merge";
import { ordersCsv } from "./admin-export";
import { listAdminOrders } from "./admin-list";
import { changeBulkOrderStatus, changeOrderStatus } from "./admin-status";
import type { TrackingTemplates } from "./purchase-read-model";
import { purchaseRoutes } from "./purchase-routes";

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
  /** Wakes the mail worker once an admin's status change queued the buyer's e-mail. */
  notifyMail?: () => void;
  /** This process wrote what the store shows: its next replies wait for that write's own change notification. */
  catalogWritten?: () => void;
  /** Wakes the payments worker: cancelling a paid order queued its refund. */
  notifyRefunds?: () => void;
  /** Carrier → tracking page (TRACKING_URL_TEMPLATES): the order page's and e-mails' tracking links. */
  trackingUrlTemplates?: TrackingTemplates;
}

/**
 * The shopper's cart, wishlist and pending lines (docs/product-rules.md §8, §10.6 Orders; §10). Admins can't buy
 * (docs/product-rules.md §11.1): they are refused on the shopper's routes. The back office's routes list, export
 * and move on every shopper's purchases; PUT /order/:id serves both, by the caller's role.
 */
export function orderRoutes({
  db,
  reference,
  storeTimeZone,
  now = () => new Date(),
  notifyMail,
  catalogWritten,
  notifyRefunds,
  trackingUrlTemplates = {},
}: OrderRoutesDeps): FastifyPluginAsyncZod {
  const pricing = (): PricingContext => ({ reference, weekday: weekdayIn(storeTimeZone, now()) });
  const statusDeps = { notifyMail, catalogWritten, notifyRefunds, trackingUrlTemplates };

  return async (app) => {
    keepRepliesPrivate(app);
    await app.register(purchaseRoutes({ db, trackingUrlTemplates, storeTimeZone }));

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
          summary:
            "The caller's products with lines of these statuses (bulk orders' lines too, with their bulkOrderId), priced by the server",
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
        // Shoppers and admins send different bodies: the handler refuses a bad one by the caller's role.
        attachValidation: true,
        schema: {
          tags: ["orders"],
          summary:
            "Shopper: change a cart line's amount by 1, or move a line: wishlist → cart, cart or wishlist → pending, " +
            "pending → cart (taken back from checkout: merged into the cart line, capped at the stock). " +
            "Admin (SPEC's client; the back office uses PUT /order/admin/{id}): move any shopper's single purchase " +
            "to {status} (delivered, finished, preparing, onDelivery, cancelled)",
          security: BEARER,
          params: idParamSchema,
          body: orderUpdateSchema,
          response: { 200: orderUpdateReplySchema, ...errors },
        },
      },
      async (request) => {
        const caller = signedIn(request);
        const invalid = request.validationError;
        // An admin's body is read by the admin's own schema (after the target is checked); anything else
        // that failed validation is refused as on every route.
        if (invalid && (caller.rol !== "admin" || invalid.validationContext !== "body")) throw invalid;
        if (caller.rol === "admin") {
          return changeOrderStatus(db, caller, request.params.id, request.body, statusDeps);
        }
        return updateOrder(db, signedInShopper(request).id, request.params.id, request.body, pricing());
      },
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

    const admin = { config: { access: "admin" as const } };

    app.get(
      "/order/admin/bulk",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary:
            "Every shopper's purchases, single and bulk, newest first, with buyer, products and prices; filtered, and paged when a page is asked",
          security: BEARER,
          querystring: adminOrderQuerySchema,
          response: { 200: z.union([adminOrderPageSchema, adminOrderListSchema]), ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => listAdminOrders(db, request.query),
    );

    app.get(
      "/order/admin/export",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary: "The purchases the filters match, as a CSV file (streamed, one row per purchase)",
          security: BEARER,
          querystring: adminOrderExportQuerySchema,
          response: {
            200: {
              description: "A header row (ORDER_CSV_COLUMNS), then one row per purchase",
              content: { "text/csv": { schema: z.string() } },
            },
            ...SIGNED_IN_ERRORS,
          },
        },
      },
      async (request, reply) =>
        reply
          .type("text/csv; charset=utf-8")
          .header("content-disposition", 'attachment; filename="orders.csv"')
          // A stream skips the serializer: the 200 schema above only documents the CSV text.
          .send(ordersCsv(db, request.query) as never),
    );

    app.put(
      "/order/admin/:id",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary:
            "Move any shopper's single purchase to {status}; cancelling a paid order gives its stock back, a paid status takes it again",
          security: BEARER,
          params: idParamSchema,
          body: adminStatusChangeSchema,
          response: { 200: orderUpdateReplySchema, ...errors },
        },
      },
      async (request) =>
        changeOrderStatus(db, signedIn(request), request.params.id, request.body, statusDeps),
    );

    app.put(
      "/order/bulk/:id",
      {
        ...admin,
        schema: {
          tags: ["admin"],
          summary:
            "Move a bulk order and all its lines to {status}; cancelling a paid one gives its stock back, a paid status takes it again",
          security: BEARER,
          params: idParamSchema,
          body: adminStatusChangeSchema,
          response: { 200: adminBulkStatusReplySchema, ...errors },
        },
      },
      async (request) =>
        changeBulkOrderStatus(db, signedIn(request), request.params.id, request.body, statusDeps),
    );
  };
}

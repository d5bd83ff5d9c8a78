import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  buyAgainReplySchema,
  purchaseParamsSchema,
  purchaseSchema,
  purchaseSummaryListSchema,
} from "@voltio/domain/purchase";
import type { Db } from "../../db/client";
import { signedIn, signedInShopper } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS } from "../../http/private-replies";
import { buyAgain } from "./buy-again";
import { listPurchases, purchaseFor, purchaseReply, type TrackingTemplates } from "./purchase-read-model";

export interface PurchaseRoutesDeps {
  db: Db;
  trackingUrlTemplates: TrackingTemplates;
  storeTimeZone: string;
}

/**
 * A shopper's paid purchases: the list, one purchase's page, its PDF receipt and
 * "buy again". The buyer and admins may open a purchase; to anyone else it doesn't exist (404, as an unknown
 * number). Registered by orderRoutes, whose hooks keep these replies out of caches.
 */
export function purchaseRoutes({
  db,
  trackingUrlTemplates,
  storeTimeZone,
}: PurchaseRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/order/purchases",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary: "The caller's paid purchases, newest first: number, date, total, statuses, first pictures",
          security: BEARER,
          response: { 200: purchaseSummaryListSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => listPurchases(db, signedIn(request).id),
    );

    app.get(
      "/order/purchases/:number",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary:
            "One purchase by its number (V-000123): lines, money, address, payment, each shipment's status history and tracking. Its buyer or an admin; 404 for anyone else",
          security: BEARER,
          params: purchaseParamsSchema,
          response: { 200: purchaseSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) =>
        purchaseReply(await purchaseFor(db, signedIn(request), request.params.number, trackingUrlTemplates)),
    );

    app.get(
      "/order/purchases/:number/receipt",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary: "The purchase's receipt as a PDF file (its buyer or an admin)",
          security: BEARER,
          params: purchaseParamsSchema,
          response: {
            200: {
              description: "The receipt, receipt-V-000123.pdf",
              content: { "application/pdf": { schema: z.string() } },
            },
            ...SIGNED_IN_ERRORS,
          },
        },
      },
      async (request, reply) => {
        const purchase = await purchaseFor(
          db,
          signedIn(request),
          request.params.number,
          trackingUrlTemplates,
        );
        // pdfkit and its fonts' tables (~5 MB of heap) load with the first receipt, not in every process.
        const { receiptPdf } = await import("./receipt");
        const pdf = await receiptPdf(purchaseReply(purchase), storeTimeZone);
        return (
          reply
            .type("application/pdf")
            .header("content-disposition", `attachment; filename="receipt-${purchase.number}.pdf"`)
            // A Buffer skips the serializer: the 200 schema above only documents the file.
            .send(pdf as never)
        );
      },
    );

    app.post(
      "/order/purchases/:number/buy-again",
      {
        config: { access: "user" },
        schema: {
          tags: ["orders"],
          summary:
            "Put a purchase's products back in the caller's cart, each capped at the stock; says what is gone or short",
          security: BEARER,
          params: purchaseParamsSchema,
          response: { 200: buyAgainReplySchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        const caller = signedInShopper(request);
        const purchase = await purchaseFor(db, caller, request.params.number, trackingUrlTemplates);
        return buyAgain(db, caller.id, purchase);
      },
    );
  };
}

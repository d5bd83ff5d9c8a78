import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorSchema, idParamSchema, idSchema } from "@voltio/domain/http";
import { stockAlertReplySchema } from "@voltio/domain/stock-alerts";
import type { Db } from "../../db/client";
import { signedInShopper } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import { cancelAlert, hasAlert, requestAlert } from "./service";

export interface StockAlertRoutesDeps {
  db: Db;
}

/** `?variantId=`: the variant to wait for; without it, the product's default one (issue 41). */
const querystring = z.object({
  variantId: idSchema.optional().describe("The sold-out variant; without it, the product's default variant"),
});

const errors = {
  ...SIGNED_IN_ERRORS,
  409: errorSchema.extend({ stock: z.number().int().optional() }),
};

/**
 * Back-in-stock requests: the caller's own request for a product, by the product's id.
 * Shoppers only: admins can't buy (docs/product-rules.md §11.1), so they have nothing to wait for (403). Unknown or retired
 * products answer 404 "Product Not Found!", as GET /products/{id} does.
 */
const target = (request: { params: { id: number }; query: { variantId?: number } }) => ({
  productId: request.params.id,
  variantId: request.query.variantId,
});

export function stockAlertRoutes({ db }: StockAlertRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    keepRepliesPrivate(app);
    const route = "/product/:id/stock-alert";
    const shopper = { config: { access: "user" as const } };

    app.put(
      route,
      {
        ...shopper,
        schema: {
          tags: ["catalogue"],
          summary:
            "Ask to be e-mailed once when this sold-out product is back in stock (asking again keeps one request; " +
            "409 while it can be bought)",
          security: BEARER,
          params: idParamSchema,
          querystring,
          response: { 200: stockAlertReplySchema, ...errors },
        },
      },
      async (request) => {
        await requestAlert(db, signedInShopper(request).id, target(request));
        return { requested: true };
      },
    );

    app.delete(
      route,
      {
        ...shopper,
        schema: {
          tags: ["catalogue"],
          summary: "Cancel the caller's back-in-stock request for this product (none open is fine)",
          security: BEARER,
          params: idParamSchema,
          querystring,
          response: { 200: stockAlertReplySchema, ...errors },
        },
      },
      async (request) => {
        await cancelAlert(db, signedInShopper(request).id, target(request));
        return { requested: false };
      },
    );

    app.get(
      route,
      {
        ...shopper,
        schema: {
          tags: ["catalogue"],
          summary: "Whether the caller asked to be told when this product is back in stock",
          security: BEARER,
          params: idParamSchema,
          querystring,
          response: { 200: stockAlertReplySchema, ...errors },
        },
      },
      async (request) => ({ requested: await hasAlert(db, signedInShopper(request).id, target(request)) }),
    );
  };
}

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { statsQuerySchema, statsReplySchema } from "@voltio/domain/admin";
import type { Db } from "../../db/client";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import { readStats, statsPeriod, storeToday } from "./service";

export interface StatsRoutesDeps {
  db: Db;
  /** Days are the store's: 'today' and each purchase's day are read in its time zone. */
  storeTimeZone: string;
  now?: () => Date;
}

/** GET /stats (admin): the dashboard's figures (docs/product-rules.md §1 Admin dashboard). */
export function statsRoutes({
  db,
  storeTimeZone,
  now = () => new Date(),
}: StatsRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    keepRepliesPrivate(app);

    app.get(
      "/stats",
      {
        config: { access: "admin" },
        schema: {
          tags: ["admin"],
          summary:
            "Sales per day, orders per status, top 5 products and the latest shoppers, for days from..to of the store",
          security: BEARER,
          querystring: statsQuerySchema,
          response: { 200: statsReplySchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => readStats(db, statsPeriod(request.query, storeToday(storeTimeZone, now()))),
    );
  };
}

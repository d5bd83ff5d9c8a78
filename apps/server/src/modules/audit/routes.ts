import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { auditPageSchema, auditQuerySchema } from "@voltio/domain/audit";
import type { Db } from "../../db/client";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import { pageAudit } from "./service";

/** The audit log screen's reads; the log is written by each change's own transaction. */
export function auditRoutes({ db }: { db: Db }): FastifyPluginAsyncZod {
  return async (app) => {
    keepRepliesPrivate(app);
    app.get(
      "/audit",
      {
        config: { access: "admin" },
        schema: {
          tags: ["admin"],
          summary: "The admins' changes, newest first, with before and after; by entity and by admin (admin)",
          security: BEARER,
          querystring: auditQuerySchema,
          response: { 200: auditPageSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => pageAudit(db, request.query),
    );
  };
}

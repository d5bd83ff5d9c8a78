import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { errorSchema, tokenExpiredSchema } from "@voltio/domain/http";

/** The OpenAPI security of routes that read the caller's bearer token. */
export const BEARER = [{ bearer: [] }];

/** The refusals every signed-in route may answer (an expired access token is a 403 of its own shape). */
export const SIGNED_IN_ERRORS = {
  400: errorSchema,
  401: errorSchema,
  403: z.union([errorSchema, tokenExpiredSchema]),
  404: errorSchema,
};

/** Tokens, accounts and orders are never cached by browsers or proxies (ASVS 8.2.1). */
export function keepRepliesPrivate(app: FastifyInstance): void {
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });
}

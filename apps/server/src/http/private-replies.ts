import type { FastifyInstance } from "fastify";

/** The OpenAPI security of routes that read the caller's bearer token. */
export const BEARER = [{ bearer: [] }];

/** Tokens, accounts and orders are never cached by browsers or proxies (ASVS 8.2.1). */
export function keepRepliesPrivate(app: FastifyInstance): void {
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });
}

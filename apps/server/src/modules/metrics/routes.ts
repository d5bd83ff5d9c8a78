import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Registry } from "prom-client";
import { NotFound } from "../../errors";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * GET /api/metrics: Prometheus' text format, only with `Authorization: Bearer $METRICS_TOKEN`. Without a
 * token set, or with the wrong one, it answers 404 like any unknown path: the page gives nothing away.
 */
export function metricsRoutes({
  registry,
  token,
}: {
  registry: Registry;
  token?: string;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.get("/metrics", { config: { access: "public" }, schema: { hide: true } }, async (request, reply) => {
      const sent = request.headers.authorization ?? "";
      // Compared as digests: equal lengths, and no timing to learn the token from.
      if (!token || !timingSafeEqual(digest(sent), digest(`Bearer ${token}`)))
        throw new NotFound("Not Found");
      reply.header("cache-control", "no-store").type(registry.contentType);
      return registry.metrics();
    });
  };
}

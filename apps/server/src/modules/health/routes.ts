import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { DATABASE_RETRY_AFTER_SECONDS } from "../../db/unavailable";

/**
 * GET /api/health/live and /api/health/ready, for a load balancer or an orchestrator.
 * Live: the process answers (no database). Ready: it can serve — the database answers, every migration is
 * applied, the catalogue's search index is built, other processes' changes reach it — and it isn't shutting
 * down; else 503 naming what fails.
 */
export interface HealthDeps {
  db: Db;
  /** How many migrations this build ships: the database must have applied as many. */
  migrations: number;
  /** The search index is built (a new process takes traffic only once searches don't wait for it). */
  searchReady: () => boolean;
  /** The process got SIGTERM: it finishes what it has, and takes nothing new. */
  draining: () => boolean;
  /** Other processes' changes reach this one (its LISTEN connection is up; always so on PGlite). */
  listening: () => boolean;
}

const CHECKS = ["database", "migrations", "search", "listen", "draining"] as const;
const readySchema = z.object({
  status: z.enum(["ready", "unavailable"]),
  failing: z.array(z.enum(CHECKS)).describe("What keeps the process from taking traffic"),
});

/** A database that doesn't answer within this long counts as down: the balancer shouldn't wait on it. */
const DATABASE_TIMEOUT_MS = 2000;

export function healthRoutes({
  db,
  migrations,
  searchReady,
  draining,
  listening,
}: HealthDeps): FastifyPluginAsyncZod {
  async function applied(): Promise<number | null> {
    const query = db
      .execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
      .then((result) => Number((result as { rows: { n: number }[] }).rows[0]?.n ?? 0));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>(
      (resolve) => (timer = setTimeout(() => resolve(null), DATABASE_TIMEOUT_MS)),
    );
    try {
      return await Promise.race([query, timeout]);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  return async (app) => {
    app.get(
      "/health/live",
      {
        config: { access: "public" },
        schema: {
          tags: ["health"],
          summary: "The process answers (nothing else is checked)",
          response: { 200: z.object({ status: z.literal("live") }) },
        },
      },
      async (_request, reply) => {
        reply.header("cache-control", "no-store");
        return { status: "live" as const };
      },
    );

    app.get(
      "/health/ready",
      {
        config: { access: "public" },
        schema: {
          tags: ["health"],
          summary:
            "The process can take traffic: database, migrations and search index ready, not shutting down",
          response: { 200: readySchema, 503: readySchema },
        },
      },
      async (_request, reply) => {
        const count = await applied();
        const failing = [
          ...(count === null ? (["database"] as const) : []),
          ...(count !== null && count < migrations ? (["migrations"] as const) : []),
          ...(searchReady() ? [] : (["search"] as const)),
          ...(listening() ? [] : (["listen"] as const)),
          ...(draining() ? (["draining"] as const) : []),
        ];
        reply.header("cache-control", "no-store");
        if (failing.length) reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
        reply.code(failing.length ? 503 : 200);
        return { status: failing.length ? ("unavailable" as const) : ("ready" as const), failing };
      },
    );
  };
}

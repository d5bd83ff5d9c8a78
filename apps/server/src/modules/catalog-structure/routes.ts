import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client";

export interface CatalogStructureRoutesDeps {
  db: Db;
  /** This process wrote what the store shows: its next replies wait for that write's own change notification. */
  catalogWritten: () => void;
}

/** Brands and the attributes each category's products are specified by (issue 41): read by all, written by admins. */
export function catalogStructureRoutes(_deps: CatalogStructureRoutesDeps): FastifyPluginAsyncZod {
  return async () => {};
}

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { networksSchema } from "@voltio/domain/catalog";
import { networksInputSchema } from "@voltio/domain/newsletter";
import type { Db } from "../../db/client";
import { signedIn } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS } from "../../http/private-replies";
import { saveNetworks } from "./service";

export interface NetworkRoutesDeps {
  db: Db;
  /** This process wrote what the store shows: its next replies wait for that write's own change notification. */
  catalogWritten: () => void;
}

/** POST /networks (docs/product-rules.md §10.6): the store's social links; GET is the catalogue's. */
export function networkRoutes({ db, catalogWritten }: NetworkRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      "/networks",
      {
        config: { access: "admin" },
        schema: {
          tags: ["catalogue", "admin"],
          summary:
            "Set the store's Facebook, Twitter and Instagram links (admin): http(s) addresses, empty to hide " +
            "one, left out to keep it",
          security: BEARER,
          body: networksInputSchema,
          response: { 200: networksSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        const saved = await saveNetworks(db, signedIn(request), request.body);
        catalogWritten();
        return saved;
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { networksSchema } from "@voltio/domain/catalog";
import { networksInputSchema } from "@voltio/domain/newsletter";
import type { Db } from "../../db/client";
import { signedIn } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS } from "../../http/private-replies";
import { saveNetworks } from "./service";

export interface NetworkRoutesDeps {
  db: Db;
  /** The footer reads GET /networks through the catalogue's cache: it follows at once. */
  onNetworksChange: () => void;
}

/** POST /networks (SPEC.md §7; issue 13 point 4): the store's social links; GET is the catalogue's. */
export function networkRoutes({ db, onNetworksChange }: NetworkRoutesDeps): FastifyPluginAsyncZod {
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
        onNetworksChange();
        return saved;
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorSchema, messageReplySchema } from "@voltio/domain/http";
import {
  reviewCreateSchema,
  reviewDeleteSchema,
  reviewListSchema,
  reviewQuerySchema,
  reviewSchema,
  reviewUpdateSchema,
} from "@voltio/domain/reviews";
import type { Db } from "../../db/client";
import { signedIn, type Identify } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import { createReview, deleteReview, listReviews, updateReview } from "./service";

const errors = { ...SIGNED_IN_ERRORS, 409: errorSchema };

export interface ReviewRoutesDeps {
  db: Db;
  /** GET /comment is public, but a signed-in caller's own review carries its e-mail. */
  identify: Identify;
  /** This process wrote what the store shows: its next replies wait for that write's own change notification. */
  catalogWritten?: () => void;
}

/** GET, POST, PUT and DELETE /comment (docs/product-rules.md §10.6 Reviews). */
export function reviewRoutes({ db, identify, catalogWritten }: ReviewRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // The list differs per caller (their own review's e-mail): no shared caches.
    keepRepliesPrivate(app);

    app.get(
      "/comment",
      {
        config: { access: "public" },
        schema: {
          tags: ["reviews"],
          summary: "A product's reviews, newest first (the e-mail only on the caller's own review)",
          querystring: reviewQuerySchema,
          response: { 200: reviewListSchema, ...errors },
        },
      },
      async (request) => listReviews(db, request.query.productId, (await identify(request))?.id),
    );

    app.post(
      "/comment",
      {
        config: { access: "user" },
        schema: {
          tags: ["reviews"],
          summary: "Review a product the caller bought (one review per product)",
          security: BEARER,
          body: reviewCreateSchema,
          response: { 201: reviewSchema, ...errors },
        },
      },
      async (request, reply) => {
        const created = await createReview(db, signedIn(request), request.body);
        catalogWritten?.();
        return reply.code(201).send(created);
      },
    );

    app.put(
      "/comment",
      {
        config: { access: "user" },
        schema: {
          tags: ["reviews"],
          summary: "Change the caller's own review",
          security: BEARER,
          body: reviewUpdateSchema,
          response: { 200: reviewSchema, ...errors },
        },
      },
      async (request) => {
        const updated = await updateReview(db, signedIn(request), request.body);
        catalogWritten?.();
        return updated;
      },
    );

    app.delete(
      "/comment",
      {
        config: { access: "user" },
        schema: {
          tags: ["reviews"],
          summary: "Delete the caller's own review (admins: any review, recorded in the audit log)",
          security: BEARER,
          body: reviewDeleteSchema,
          response: { 200: messageReplySchema, ...errors },
        },
      },
      async (request) => {
        await deleteReview(db, signedIn(request), request.body.id);
        catalogWritten?.();
        return { msg: "Comment deleted" };
      },
    );
  };
}

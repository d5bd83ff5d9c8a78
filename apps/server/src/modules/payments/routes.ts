import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  feedbackQuerySchema,
  feedbackReplySchema,
  payBodySchema,
  payReplySchema,
} from "@voltio/domain/payments";
import type { Db } from "../../db/client";
import { NotFound } from "../../errors";
import { signedInShopper } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import type { PaymentProvider } from "../../integrations/payments/provider";
import { checkoutSummary, settlePayment, startCheckout } from "./service";

const errors = SIGNED_IN_ERRORS;

export interface PaymentRoutesDeps {
  db: Db;
  provider: PaymentProvider;
  /** The store's public address: a checkout's return address must be the store itself. */
  publicUrl: string;
  /** Wakes the mail worker once a settlement queued its message. */
  notifyMail?: () => void;
}

/**
 * POST /{provider}/pay and GET /{provider}/feedback (SPEC.md §7 Payment; DESIGN.md §5), under the configured
 * provider's name only.
 */
export function paymentRoutes({
  db,
  provider,
  publicUrl,
  notifyMail,
}: PaymentRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    keepRepliesPrivate(app);

    app.post(
      `/${provider.name}/pay`,
      {
        config: { access: "user" },
        schema: {
          tags: ["payments"],
          summary:
            "Start paying everything the caller has pending; the charge is built from the server's prices",
          security: BEARER,
          body: payBodySchema,
          response: { 200: payReplySchema, ...errors },
        },
      },
      async (request) => {
        const origins = [publicUrl, `${request.protocol}://${request.host}`].map(
          (url) => new URL(url).origin,
        );
        return startCheckout({ db, provider }, signedInShopper(request).id, request.body, origins);
      },
    );

    app.get(
      `/${provider.name}/feedback`,
      {
        config: { access: "user" },
        schema: {
          tags: ["payments"],
          summary:
            "What became of a payment, verified with the provider; an approved one finishes the orders",
          security: BEARER,
          querystring: feedbackQuerySchema,
          response: { 200: feedbackReplySchema, ...errors },
        },
      },
      async (request) => {
        const caller = signedInShopper(request);
        const payment = await provider.paymentFromReturn(request.query);
        if (!payment) throw new NotFound("Payment Not Found");
        const settled = await settlePayment(db, provider, payment, { userId: caller.id });
        notifyMail?.();
        if (settled.Status !== "approved") return settled;
        return { ...settled, order: await checkoutSummary(db, Number(payment.reference)) };
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorSchema } from "@voltio/domain/http";
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

const errors = { ...SIGNED_IN_ERRORS, 502: errorSchema };

/** A provider's notifications are small (a Stripe event with its session is a few kB). */
const WEBHOOK_BODY_LIMIT = 64 * 1024;

const webhookReplySchema = z.object({
  received: z.literal(true),
  ignored: z
    .literal(true)
    .optional()
    .describe("Not about a payment of this store's checkouts: nothing changed"),
});

export interface PaymentRoutesDeps {
  db: Db;
  provider: PaymentProvider;
  /** The store's public address: a checkout's return address must be the store itself. */
  publicUrl: string;
  /** Wakes the mail worker once a settlement queued its message. */
  notifyMail?: () => void;
  /** An approved settlement took stock: the catalogue's listings and search must show it. */
  onStockChange?: () => void;
}

/**
 * POST /{provider}/pay, GET /{provider}/feedback and, for a provider that sends notifications,
 * POST /{provider}/webhook (SPEC.md §7 Payment; DESIGN.md §5), under the configured provider's name only.
 */
export function paymentRoutes({
  db,
  provider,
  publicUrl,
  notifyMail,
  onStockChange,
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
        onStockChange?.();
        return { ...settled, order: await checkoutSummary(db, Number(payment.reference)) };
      },
    );

    const paymentFromWebhook = provider.paymentFromWebhook?.bind(provider);
    if (!paymentFromWebhook) return;
    // Its own scope: the body is kept as the bytes the provider signed, and only this route reads it so.
    await app.register(async (webhook) => {
      webhook.removeAllContentTypeParsers();
      webhook.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
        done(null, body),
      );
      webhook.post(
        `/${provider.name}/webhook`,
        {
          bodyLimit: WEBHOOK_BODY_LIMIT,
          config: { access: "public" },
          schema: {
            tags: ["payments"],
            summary:
              "The provider's signed notification of a payment: verified with the provider, it finishes the orders once",
            response: { 200: webhookReplySchema, 400: errorSchema, 401: errorSchema, 502: errorSchema },
          },
        },
        async (request) => {
          const notification = await paymentFromWebhook({
            headers: request.headers,
            rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            query: request.query as Record<string, string | undefined>,
          });
          if (!notification) return { received: true as const, ignored: true as const };
          let settled;
          try {
            settled = await settlePayment(db, provider, notification.payment, {
              eventId: notification.eventId,
            });
          } catch (error) {
            // A payment of no checkout of this store: acknowledged, or the provider would retry it for days.
            if (error instanceof NotFound) return { received: true as const, ignored: true as const };
            throw error;
          }
          notifyMail?.();
          if (settled.Status === "approved") onStockChange?.();
          return { received: true as const };
        },
      );
    });
  };
}

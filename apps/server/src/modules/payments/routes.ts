import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorSchema } from "@voltio/domain/http";
import { idParamSchema } from "@voltio/domain/http";
import { checkoutIdOf } from "@voltio/domain/order-status";
import {
  adminPaymentPageSchema,
  adminPaymentQuerySchema,
  feedbackQuerySchema,
  feedbackReplySchema,
  payBodySchema,
  payReplySchema,
  refundBodySchema,
  refundReplySchema,
  type PaymentProviderName,
} from "@voltio/domain/payments";
import type { Db } from "../../db/client";
import { Conflict, NotFound } from "../../errors";
import { signedIn, signedInShopper } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS, keepRepliesPrivate } from "../../http/private-replies";
import type { PaymentProvider } from "../../integrations/payments/provider";
import type { StoreMetrics } from "../metrics/registry";
import { checkoutSummary, startCheckout } from "./checkout";
import { listPayments } from "./admin-list";
import { refundPayment } from "./refunds";
import { recheckShopper, settlePayment, type Settled } from "./settlement";

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

/** The provider whose paths SPEC's client calls (POST /mercadopago/pay, GET /mercadopago/feedback). */
export const SPEC_CLIENT_PROVIDER: PaymentProviderName = "mercadopago";

export interface PaymentRoutesDeps {
  db: Db;
  provider: PaymentProvider;
  /** Where a checkout may send the shopper back (PUBLIC_URL and RETURN_ORIGINS): never the request's Host. */
  returnOrigins: string[];
  /** Wakes the mail worker once a settlement queued its message. */
  notifyMail?: () => void;
  /** This process wrote what the store shows: its next replies wait for that write's own change notification. */
  catalogWritten?: () => void;
  /** STOCK_HOLD_SECONDS. */
  holdSeconds: number;
  /** STORE_TIMEZONE: a settled purchase's local date is the store's. */
  storeTimeZone: string;
  /** A checkout held units: what others see for sale changed (the search index reads the shelf: it stays). */
  onHoldsChange?: () => void;
  /** Wakes the payments worker once a refund was queued. */
  notifyRefunds?: () => void;
  /** Counts checkouts, settlements and notifications for /api/metrics. */
  metrics?: Pick<StoreMetrics, "checkouts" | "settled" | "webhooks">;
}

/**
 * POST /{provider}/pay, GET /{provider}/feedback and, for a provider that sends notifications,
 * POST /{provider}/webhook (docs/product-rules.md §10.6 Payment; §10), under the configured provider's name; pay and
 * feedback also under SPEC_CLIENT_PROVIDER's, served by the configured provider.
 */
export function paymentRoutes({
  db,
  provider,
  returnOrigins,
  notifyMail,
  catalogWritten,
  holdSeconds,
  storeTimeZone,
  onHoldsChange,
  notifyRefunds,
  metrics,
}: PaymentRoutesDeps): FastifyPluginAsyncZod {
  /** What a settlement leaves to do once committed. */
  const afterSettle = (settled: Settled) => {
    metrics?.settled.inc({ outcome: settled.reply.Status });
    if (settled.mailed) notifyMail?.();
    if (settled.stockTaken) catalogWritten?.();
    if (settled.refundQueued) notifyRefunds?.();
  };
  return async (app) => {
    keepRepliesPrivate(app);

    // SPEC's client pays at /mercadopago/…, whatever the store's provider: those paths answer for it too.
    const payPaths = [...new Set([provider.name, SPEC_CLIENT_PROVIDER])];
    for (const name of payPaths) {
      const alias =
        name === provider.name
          ? ""
          : ` (the address SPEC's client uses; served by the ${provider.name} provider)`;

      app.post(
        `/${name}/pay`,
        {
          config: { access: "user" },
          schema: {
            tags: ["payments"],
            summary:
              "Start paying what the caller chose of their pending orders (orderIds, bulkOrderIds; everything pending when neither is given); the charge is built from the server's prices" +
              alias,
            security: BEARER,
            body: payBodySchema,
            response: { 200: payReplySchema, ...errors },
          },
        },
        async (request) => {
          const reply = await startCheckout(
            {
              db,
              provider,
              holdSeconds,
              recheckOpen: async (userId) => {
                for (const settled of await recheckShopper(db, provider, userId, storeTimeZone))
                  if (settled) afterSettle(settled);
              },
              onCloseFailure: (error) =>
                request.log.warn(
                  { error: (error as Error).message },
                  "closing a checkout at the provider failed",
                ),
            },
            signedInShopper(request).id,
            request.body,
            returnOrigins,
          ).catch((error: unknown) => {
            if (error instanceof Conflict) metrics?.checkouts.inc({ outcome: "refused" });
            throw error;
          });
          metrics?.checkouts.inc({ outcome: "started" });
          // The checkout holds units: what others see changed.
          onHoldsChange?.();
          return reply;
        },
      );

      app.get(
        `/${name}/feedback`,
        {
          config: { access: "user" },
          schema: {
            tags: ["payments"],
            summary:
              "What became of a payment, verified with the provider; an approved one finishes the orders" +
              alias,
            security: BEARER,
            querystring: feedbackQuerySchema,
            response: { 200: feedbackReplySchema, ...errors },
          },
        },
        async (request) => {
          const caller = signedInShopper(request);
          const payment = await provider.paymentFromReturn(request.query);
          if (!payment) throw new NotFound("Payment Not Found");
          const settled = await settlePayment(db, provider, payment, {
            userId: caller.id,
            storeTimeZone,
          });
          afterSettle(settled);
          if (settled.reply.Status !== "approved") return settled.reply;
          return { ...settled.reply, order: await checkoutSummary(db, checkoutIdOf(payment.reference)!) };
        },
      );
    }

    app.get(
      "/payment/admin",
      {
        config: { access: "admin" },
        schema: {
          tags: ["payments"],
          summary: "Every payment with what became of it; those needing the owner's attention first",
          security: BEARER,
          querystring: adminPaymentQuerySchema,
          response: { 200: adminPaymentPageSchema, ...errors },
        },
      },
      async (request) => listPayments(db, request.query),
    );

    app.post(
      "/payment/admin/:id/refund",
      {
        config: { access: "admin" },
        schema: {
          tags: ["payments"],
          summary:
            "Refund an approved payment through its provider: all that is left by default, or `amount` dollars",
          security: BEARER,
          params: idParamSchema,
          body: refundBodySchema,
          response: { 200: refundReplySchema, ...errors },
        },
      },
      async (request) => {
        const reply = await refundPayment(db, signedIn(request), request.params.id, request.body);
        notifyRefunds?.();
        notifyMail?.();
        if (reply.cancelled) catalogWritten?.();
        return reply;
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
          }).catch((error: unknown) => {
            // A forged, stale or malformed notification, or the provider down while asked about it.
            metrics?.webhooks.inc({ outcome: "refused" });
            throw error;
          });
          if (!notification) {
            metrics?.webhooks.inc({ outcome: "ignored" });
            return { received: true as const, ignored: true as const };
          }
          let settled;
          try {
            settled = await settlePayment(db, provider, notification.payment, {
              eventId: notification.eventId,
              storeTimeZone,
            });
          } catch (error) {
            // A payment of no checkout of this store: acknowledged, or the provider would retry it for days.
            if (error instanceof NotFound) {
              metrics?.webhooks.inc({ outcome: "ignored" });
              return { received: true as const, ignored: true as const };
            }
            metrics?.webhooks.inc({ outcome: "failed" });
            throw error;
          }
          afterSettle(settled);
          metrics?.webhooks.inc({ outcome: "settled" });
          return { received: true as const };
        },
      );
    });
  };
}

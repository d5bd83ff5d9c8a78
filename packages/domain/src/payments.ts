import { z } from "zod";
import { shippingAddressSchema } from "./account";
import { idSchema, lineSchema, numberInput, pageInfoSchema, pageQuery, queryBooleanSchema } from "./http";

/** Card payments (docs/product-rules.md §8 Payment, §10.6 Payment; §10–11). */
export const PAYMENT_PROVIDERS = ["sandbox", "mercadopago", "stripe"] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/**
 * POST /{provider}/pay. the original specification's client sends the items it shows and the page's address; the server charges
 * what the shopper has pending from its own books, so `items` is read only as far as it must be well formed.
 */
export const payBodySchema = z.object({
  items: z
    .array(
      z.object({
        title: z.unknown().optional(),
        amount: z.unknown().optional(),
        price: z.unknown().optional(),
      }),
    )
    .max(500, "must list at most 500 items")
    .optional(),
  baseURL: z.url({ error: "must be the store's address, such as https://shop.example.com" }).max(2000),
  /** The address to ship to (one of the shopper's); the first one when not given. */
  directionId: idSchema.optional(),
  /**
   * What to pay (ADR 0015): these pending lines bought on their own and these pending bulk orders. Without
   * either, everything the shopper has pending, as the original specification's client expects.
   */
  orderIds: z
    .array(idSchema)
    .max(500, "must list at most 500 orders")
    .optional()
    .describe("Pending lines (not in a bulk order) to pay; with bulkOrderIds, nothing else is charged"),
  bulkOrderIds: z
    .array(idSchema)
    .max(500, "must list at most 500 bulk orders")
    .optional()
    .describe("Pending bulk orders to pay; with orderIds, nothing else is charged"),
});
export type PayBody = z.infer<typeof payBodySchema>;

export const payReplySchema = z.object({
  id: z.string().describe("The provider's checkout id (preference, session or sandbox charge)"),
  init_point: z.string().describe("Where to send the shopper to pay"),
});
export type PayReply = z.infer<typeof payReplySchema>;

/**
 * What the store decided about a payment: `approved` finished the orders; `refund_needed` (paid, but the
 * stock was gone or the orders were paid already) and `amount_mismatch` wait for the admin.
 */
export const PAYMENT_OUTCOMES = [
  "approved",
  "pending",
  "rejected",
  "refund_needed",
  "amount_mismatch",
] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

/** What an approved payment bought: the /purchase/success screen's summary. */
export const orderSummarySchema = z.object({
  number: z.string().describe("The purchase's number, e.g. V-000123"),
  items: z.array(
    z.object({
      title: z.string(),
      amount: z.number().int(),
      unitPrice: z.number().describe("US dollars"),
      discountPercentage: z.number().int().nullable(),
    }),
  ),
  products: z.number().describe("US dollars"),
  shipping: z.number().describe("US dollars"),
  total: z.number().describe("US dollars"),
  address: shippingAddressSchema,
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

/**
 * GET /{provider}/feedback: the payment as the server verified it with the provider (docs/product-rules.md §10.6: Status and
 * Payment), with what it bought once approved and the provider's reason for a decline.
 */
export const feedbackReplySchema = z.object({
  Status: z.enum(PAYMENT_OUTCOMES),
  Payment: z.string().describe("The provider's payment id"),
  order: orderSummarySchema.optional(),
  reason: z.string().optional().describe("Why the provider declined the payment, in its words"),
});
export type FeedbackReply = z.infer<typeof feedbackReplySchema>;

/** The return page's query string: each provider names its payment id its own way. */
export const feedbackQuerySchema = z.object({
  payment_id: lineSchema(200).optional(),
  collection_id: lineSchema(200).optional(),
  session_id: lineSchema(200).optional(),
  status: lineSchema(100).optional(),
  external_reference: lineSchema(200).optional(),
  preference_id: lineSchema(200).optional(),
  merchant_order_id: lineSchema(200).optional(),
  collection_status: lineSchema(100).optional(),
  payment_type: lineSchema(100).optional(),
  site_id: lineSchema(100).optional(),
  processing_mode: lineSchema(100).optional(),
  merchant_account_id: lineSchema(200).optional(),
});
export type FeedbackQuery = z.infer<typeof feedbackQuerySchema>;

export const ADMIN_PAYMENTS_PAGE_SIZE = 20;

/** GET /payment/admin ?userId &attention &page &limit: those needing attention come first. */
export const adminPaymentQuerySchema = z.object({
  userId: idSchema.optional(),
  attention: queryBooleanSchema.optional(),
  ...pageQuery(ADMIN_PAYMENTS_PAGE_SIZE),
});
export type AdminPaymentQuery = z.infer<typeof adminPaymentQuerySchema>;

/** A payment as the owner sees it: money in US dollars. */
export const adminPaymentSchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  providerPaymentId: z.string(),
  status: z.string().describe("approved, pending or rejected, as the provider said"),
  amount: z.number().describe("US dollars"),
  refunded: z.number().describe("US dollars given back so far"),
  currency: z.string(),
  disputed: z.boolean(),
  userId: z.number().int(),
  orderNumbers: z.array(z.string()),
  attention: z
    .boolean()
    .describe("Approved but neither paying its orders nor refunded, disputed, or a refund not taken"),
  createdAt: z.string(),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;

export const adminPaymentPageSchema = pageInfoSchema.extend({ payments: z.array(adminPaymentSchema) });
export type AdminPaymentPage = z.infer<typeof adminPaymentPageSchema>;

/** POST /payment/admin/:id/refund: all that is left by default, or `amount` dollars of it. */
export const refundBodySchema = z.object({
  amount: numberInput(
    z
      .number({ error: "must be a number" })
      .positive("must be more than 0")
      .max(10_000_000, "must be at most 10000000")
      .refine(
        (value) => Math.round(value * 100) === Number((value * 100).toFixed(6)),
        "must have at most 2 decimals",
      ),
  ).optional(),
  reason: lineSchema(500).min(1, "Reason is required"),
});
export type RefundBody = z.infer<typeof refundBodySchema>;

export const refundReplySchema = z.object({
  msg: z.string(),
  id: z.number().int(),
  refunding: z.number().describe("US dollars"),
  cancelled: z.boolean().describe("A full refund of a paid purchase cancelled its orders"),
});
export type RefundReply = z.infer<typeof refundReplySchema>;

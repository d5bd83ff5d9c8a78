import { z } from "zod";
import { addressSchema, userSummarySchema } from "./account";
import { ORDER_FLAGS } from "./admin-orders";
import { PURCHASE_STATUSES } from "./order-status";
import { PURCHASE_NUMBER } from "./purchase";

/**
 * The back office's customer page: one account's profile, addresses, purchases, lifetime
 * spend and reviews, for GET /user/admin/:id/customer. Money in US dollars, as every reply speaks it.
 */

/** The newest purchases and reviews the reply lists; the counts and the spend cover all of them. */
export const CUSTOMER_LIST_MAX = 100;

export const customerProfileSchema = userSummarySchema.extend({
  /** An erased account (its personal data replaced, its orders kept): when it was deleted. */
  deletedAt: z.string().nullable(),
});
export type CustomerProfile = z.infer<typeof customerProfileSchema>;

/**
 * One purchase: what one paid checkout bought (its single lines and bulk orders together), or, for a purchase
 * recorded before checkouts existed, one order or bulk order of its own (`number` null).
 */
export const customerPurchaseSchema = z.object({
  number: PURCHASE_NUMBER,
  date: z.string().describe("When it was paid (ISO 8601)"),
  total: z.number().describe("US dollars: what was charged for it, products and shipping"),
  refunded: z.number().describe("US dollars given back, or on their way back, of its payment"),
  units: z.number().int(),
  /** Its lines' statuses, in the order a purchase moves through them (a checkout's lines may differ). */
  statuses: z.array(z.enum(PURCHASE_STATUSES)),
  flags: z.array(z.enum(ORDER_FLAGS)),
});
export type CustomerPurchase = z.infer<typeof customerPurchaseSchema>;

export const customerReviewSchema = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  productTitle: z.string(),
  rating: z.number().int(),
  content: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomerReview = z.infer<typeof customerReviewSchema>;

export const customerSchema = z.object({
  profile: customerProfileSchema,
  addresses: z.array(addressSchema),
  /** The newest CUSTOMER_LIST_MAX purchases, newest first. */
  purchases: z.array(customerPurchaseSchema),
  purchaseCount: z.number().int().describe("Every purchase of the customer"),
  lifetimeSpend: z
    .number()
    .describe("US dollars the customer paid and the store kept: approved payments less what was given back"),
  /** The newest CUSTOMER_LIST_MAX reviews, the latest written or edited first. */
  reviews: z.array(customerReviewSchema),
  reviewCount: z.number().int(),
});
export type Customer = z.infer<typeof customerSchema>;

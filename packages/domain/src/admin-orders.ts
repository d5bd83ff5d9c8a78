import { z } from "zod";
import { idSchema, integerInput, lineSchema, pageInfoSchema, pageQuery, queryBooleanSchema } from "./http";
import { shippingAddressSchema } from "./account";
import { ORDER_STATUSES, PURCHASE_STATUSES } from "./order-status";
import { PURCHASE_NUMBER, carrierSchema, trackingNumberSchema } from "./purchase";

/**
 * The back office's orders (docs/product-rules.md §1 Admin orders 'All Orders', §8 Admin order status, §10.6 GET
 * /order/admin/bulk, PUT /order/…): every purchase, single or bulk, of every shopper.
 */

/** What the admin's status selector offers, in any order (docs/product-rules.md §8: no ordering is enforced). */
export const ADMIN_ORDER_STATUSES = [
  "delivered",
  "finished",
  "preparing",
  "onDelivery",
  "cancelled",
] as const;
export type AdminOrderStatus = (typeof ADMIN_ORDER_STATUSES)[number];

/** Statuses whose move tells the shopper by e-mail. */
export const NOTIFIED_STATUSES = ["onDelivery", "delivered", "cancelled"] as const;

/**
 * What happened to a purchase's money besides paying it: its payment is being refunded (the stock was gone,
 * the checkout was closed, the amount was wrong), was refunded, or was disputed by the buyer's bank.
 */
export const ORDER_FLAGS = ["refund_needed", "amount_mismatch", "refunded", "disputed"] as const;
export type OrderFlag = (typeof ORDER_FLAGS)[number];

export const ADMIN_ORDERS_PAGE_SIZE = 20;

/**
 * PUT /order/:id and PUT /order/bulk/:id by an admin. Shipping (onDelivery) may carry the parcel's tracking
 * number and carrier: the shipping e-mail and the order page show them, with a link to the
 * carrier's tracking page when the carrier is known.
 */
export const adminStatusChangeSchema = z.object({
  status: z.enum(ADMIN_ORDER_STATUSES, { error: `must be one of ${ADMIN_ORDER_STATUSES.join(", ")}` }),
  trackingNumber: trackingNumberSchema.optional(),
  carrier: carrierSchema.optional(),
});
export type AdminStatusChange = z.infer<typeof adminStatusChangeSchema>;

/** PUT /order/bulk/:id's reply: the bulk order's status, which its lines now share. */
export const adminBulkStatusReplySchema = z.object({
  msg: z.string(),
  id: z.number().int(),
  status: z.enum(ORDER_STATUSES),
});
export type AdminBulkStatusReply = z.infer<typeof adminBulkStatusReplySchema>;

export const ADMIN_ORDER_SEARCH_MAX = 100;

/** The filters of the list and of its CSV export. */
const filters = {
  status: z
    .enum(PURCHASE_STATUSES, {
      error: `must be one of ${PURCHASE_STATUSES.join(", ")}`,
    })
    .optional(),
  userId: idSchema.optional(),
  /** Only orders flagged 'refund needed' or 'amount mismatch' (true), or only one flag. */
  flagged: queryBooleanSchema.optional(),
  flag: z.enum(ORDER_FLAGS, { error: `must be one of ${ORDER_FLAGS.join(", ")}` }).optional(),
  /** A purchase's number (V-000123 or 123), or part of its buyer's name or e-mail. */
  search: lineSchema(ADMIN_ORDER_SEARCH_MAX)
    .transform((value) => value || undefined)
    .optional(),
};

/** GET /order/admin/bulk without `page`: SPEC's list holds the newest purchases up to this many. */
export const ADMIN_ORDERS_LIST_MAX = 500;

/**
 * GET /order/admin/bulk ?status &userId &flagged &flag &page &limit: with `page`, one page (the back office);
 * without, SPEC's plain list of the newest ADMIN_ORDERS_LIST_MAX.
 */
export const adminOrderQuerySchema = z.object({
  ...filters,
  page: integerInput(1).optional(),
  limit: pageQuery(ADMIN_ORDERS_PAGE_SIZE).limit,
});
export type AdminOrderQuery = z.infer<typeof adminOrderQuerySchema>;

/** GET /order/admin/export: the same filters, every matching order as CSV. */
export const adminOrderExportQuerySchema = z.object(filters);
export type AdminOrderFilters = z.infer<typeof adminOrderExportQuerySchema>;

/**
 * A single order as SPEC's client reads it under `orders`: a row of the admin's list with this array is a
 * single order (its status moves by PUT /order/{orders[0].id}), one without it a bulk order (PUT
 * /order/bulk/{id}).
 */
export const adminSingleOrderSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  productId: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  amount: z.number().int(),
  serverPurchaseDate: z.string().nullable(),
  localPurchaseDate: z.string().nullable(),
  purchaseId: z.string().nullable(),
});

/**
 * One purchase as the admin sees it: a single order (`kind: "order"`, `price`, with `title` and `orders` as
 * SPEC's client reads a single order) or a bulk order (`kind: "bulk"`, `combinedPrice`, its lines under
 * `products`). Money in US dollars.
 */
export const adminOrderSchema = z.object({
  id: z.number().int(),
  kind: z.enum(["order", "bulk"]),
  userId: z.number().int(),
  user: z.object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
  }),
  status: z.enum(ORDER_STATUSES),
  number: PURCHASE_NUMBER,
  flag: z.enum(ORDER_FLAGS).nullable(),
  serverPurchaseDate: z.string().nullable(),
  localPurchaseDate: z.string().nullable(),
  updatedAt: z.string(),
  price: z.number().describe("US dollars: the products, shipping excluded"),
  combinedPrice: z.number().optional().describe("bulk orders: the same as price"),
  shippingCost: z.number(),
  purchaseId: z.string().nullable(),
  shippingAddress: shippingAddressSchema.nullable(),
  title: z.string().optional().describe("single orders: the product's title"),
  orders: z
    .array(adminSingleOrderSchema)
    .optional()
    .describe("single orders only: the order itself, as SPEC's client tells a single order from a bulk one"),
  products: z.array(
    z.object({
      orderId: z.number().int(),
      productId: z.number().int(),
      title: z.string(),
      amount: z.number().int(),
      price: z.number().describe("US dollars: the line's total"),
    }),
  ),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

export const adminOrderPageSchema = pageInfoSchema.extend({ orders: z.array(adminOrderSchema) });
export type AdminOrderPage = z.infer<typeof adminOrderPageSchema>;
export const adminOrderListSchema = z
  .array(adminOrderSchema)
  .describe(`Without page: the newest purchases, at most ${ADMIN_ORDERS_LIST_MAX}`);

/** The columns of the CSV export, in order. */
export const ORDER_CSV_COLUMNS = [
  "kind",
  "id",
  "userId",
  "email",
  "status",
  "flag",
  "serverPurchaseDate",
  "price",
  "shippingCost",
  "purchaseId",
  "products",
  "number",
] as const;

import { z } from "zod";
import { productSchema } from "./catalog";
import { idSchema, integerInput, lineSchema } from "./http";
import { ORDER_AMOUNT_MAX, ORDER_STATUSES } from "./order-status";
import { PURCHASE_NUMBER } from "./purchase";

/**
 * Order lines (docs/product-rules.md §8 Adding/Buy flow, §10.6 Orders; §10): a shopper's wishlist and cart lines,
 * pending purchases and what happens to them afterwards.
 */
export { ORDER_AMOUNT_MAX, ORDER_STATUSES, PAID_STATUSES, isPaidStatus } from "./order-status";
export type { OrderStatus, PaidStatus } from "./order-status";

/** The lists a shopper adds to. */
export const LIST_STATUSES = ["inCart", "inWishList"] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

/** What POST /order may create: a list line, or a pending purchase of one product ('Buy now'). */
export const ADD_STATUSES = ["inCart", "inWishList", "pending"] as const;

/** The most lines one bulk order may gather. */
export const BULK_ORDER_LINES_MAX = 100;

const STATUS_ERROR = { error: `must be one of ${ORDER_STATUSES.join(", ")}` };

/** The shopper's local date and time of a purchase, as their device shows it. */
const localDateSchema = lineSchema(64);

/**
 * POST /order. Anything else the client sends (price, title, stock, shipping…) is dropped: the server reads
 * the product from the catalogue. `pending` buys the product at once (docs/product-rules.md §8 Buy flow: 'a pending line
 * is created from the detail page'): a new purchase line with today's price snapshot.
 */
export const orderAddSchema = z.object({
  status: z.enum(ADD_STATUSES, { error: "must be inCart, inWishList or pending" }),
  productId: idSchema,
  variantId: idSchema
    .optional()
    .describe("The variant bought (issue 41); without it, the product's default variant"),
  amount: integerInput(1, ORDER_AMOUNT_MAX).default(1),
  date: localDateSchema.optional(),
});
export type OrderAdd = z.infer<typeof orderAddSchema>;

/** `?status=inCart` or `?status=inCart,inWishList`: the distinct statuses asked for. */
export const orderStatusListSchema = z
  .string({ error: "must be a status or a comma list of statuses" })
  .max(200, "must be at most 200 characters")
  .transform((value) => value.split(","))
  .pipe(z.array(z.enum(ORDER_STATUSES, STATUS_ERROR)).min(1))
  .transform((statuses) => [...new Set(statuses)]);

export const orderListQuerySchema = z.object({ status: orderStatusListSchema });
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

/** PUT /order/:id: a cart amount delta, or a move to another status (with the shopper's local date). */
export const orderAmountChangeSchema = z.strictObject({
  amount: z.union([z.literal(1), z.literal(-1)], { error: "must be 1 or -1" }),
});
export const orderStatusChangeSchema = z.strictObject({
  status: z.enum(ORDER_STATUSES, STATUS_ERROR),
  date: localDateSchema.optional(),
});
export const orderUpdateSchema = z.union([orderAmountChangeSchema, orderStatusChangeSchema], {
  error: "must be {amount: 1 | -1} or {status, date?}",
});
export type OrderUpdate = z.infer<typeof orderUpdateSchema>;

/** POST /order/bulk: the caller's cart lines that become one purchase. */
export const bulkOrderSchema = z.object({
  orderIds: z
    .array(idSchema, { error: "must be a list of order ids" })
    .min(1, "must list at least one order")
    .max(BULK_ORDER_LINES_MAX, `must list at most ${BULK_ORDER_LINES_MAX} orders`)
    .refine((ids) => new Set(ids).size === ids.length, "must not repeat an order"),
  date: localDateSchema.optional(),
});
export type BulkOrderInput = z.infer<typeof bulkOrderSchema>;

/** The most lines of each list one merge may carry (a guest's lists in the browser's storage). */
export const MERGE_LINES_MAX = 200;

/**
 * POST /order/merge: a guest's lists joined to the shopper's at login, in one transaction.
 * `key` names this merge: the browser keeps it with the lists until the server answered, so a merge sent
 * again (its reply was lost) is recognised and changes nothing the second time.
 */
export const listMergeSchema = z.object({
  key: z.uuid({ error: "must be a UUID" }),
  inCart: z
    .array(
      z.object({
        productId: idSchema,
        variantId: idSchema.optional(),
        amount: integerInput(1, ORDER_AMOUNT_MAX),
      }),
      { error: "must be a list of {productId, variantId?, amount}" },
    )
    .max(MERGE_LINES_MAX, `must list at most ${MERGE_LINES_MAX} lines`)
    .default([]),
  inWishList: z
    .array(z.object({ productId: idSchema, variantId: idSchema.optional() }), {
      error: "must be a list of {productId, variantId?}",
    })
    .max(MERGE_LINES_MAX, `must list at most ${MERGE_LINES_MAX} lines`)
    .default([]),
});
export type ListMerge = z.infer<typeof listMergeSchema>;

/** The variant a line sells (issue 41), named as receipts and e-mails name it: "Logitech M720 — Black". */
export const lineVariantSchema = z.object({
  id: z.number().int(),
  sku: z.string(),
  options: z.record(z.string(), z.string()).describe("{<option name>: <value>}; {} for a default variant"),
  name: z.string(),
});
export type LineVariant = z.infer<typeof lineVariantSchema>;

/** One line as POST /order and PUT /order/:id return it. */
export const orderLineSchema = z.object({
  id: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  amount: z.number().int(),
  productId: z.number().int(),
  variantId: z.number().int(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

/** PUT /order/:id: the line after the change, or `removed` when a -1 took it below 1. */
export const orderUpdateReplySchema = z.object({
  msg: z.string(),
  removed: z.boolean(),
  order: orderLineSchema.nullable(),
});
export type OrderUpdateReply = z.infer<typeof orderUpdateReplySchema>;

/** POST /order/merge: the lines as they are after the merge, and the guest lines the store couldn't take. */
export const listMergeReplySchema = z.object({
  msg: z.string(),
  /** True when this key was merged before: nothing changed this time. */
  repeated: z.boolean(),
  lines: z.array(orderLineSchema),
  /** Guest lines left out: the product is gone or out of stock. Cart lines above the stock are capped. */
  refused: z.array(
    z.object({ status: z.enum(LIST_STATUSES), productId: z.number().int(), error: z.string() }),
  ),
});
export type ListMergeReply = z.infer<typeof listMergeReplySchema>;

/** A line inside a product of GET /order, with the prices the server computed (dollars). */
export const productOrderSchema = z.object({
  id: z.number().int(),
  variantId: z.number().int(),
  variant: lineVariantSchema,
  amount: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  bulkOrderId: z
    .number()
    .int()
    .nullable()
    .describe("The bulk order the line belongs to (its lines are also under GET /order/bulk), or null"),
  number: PURCHASE_NUMBER,
  localPurchaseDate: z.string().nullable(),
  unitPrice: z.number().describe("US dollars for one unit today, or as snapshotted when pending"),
  lineTotal: z.number().describe("US dollars for the line, 'on Nth unit' sales applied"),
  shipping: z.number().describe("US dollars"),
  salePercentage: z.number().int().nullable(),
  discountedUnits: z
    .number()
    .int()
    .describe(
      "Units at the 'on Nth unit' discount (0 without one): the checkout shows them on a line of their own",
    ),
});
export type ProductOrder = z.infer<typeof productOrderSchema>;

export const orderedProductSchema = productSchema.extend({ orders: z.array(productOrderSchema) });
export type OrderedProduct = z.infer<typeof orderedProductSchema>;
export const orderedProductListSchema = z.array(orderedProductSchema);

/** POST /order/bulk and GET /order/bulk: a purchase of several cart lines, with its combined prices (dollars). */
export const bulkOrderReplySchema = z.object({
  id: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  number: PURCHASE_NUMBER,
  combinedPrice: z.number().describe("US dollars: the sum of the line totals"),
  combinedShippingCost: z
    .number()
    .describe("US dollars: the sum of the lines' shipping, as the checkout charges it"),
  localPurchaseDate: z.string().nullable(),
  products: orderedProductListSchema,
});
export type BulkOrderReply = z.infer<typeof bulkOrderReplySchema>;
export const bulkOrderListSchema = z.array(bulkOrderReplySchema);

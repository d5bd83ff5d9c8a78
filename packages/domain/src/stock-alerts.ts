import { z } from "zod";

/**
 * Back-in-stock requests: a signed-in shopper asks to be told when a sold-out product
 * can be bought again; the first restock e-mails them once and the request ends.
 */

/** PUT, DELETE and GET /product/{id}/stock-alert: whether the caller has an open request for the product. */
export const stockAlertReplySchema = z.object({ requested: z.boolean() });
export type StockAlertReply = z.infer<typeof stockAlertReplySchema>;

/** The 409 of a request for a product that can be bought right now: there is nothing to wait for. */
export const IN_STOCK = "This product is in stock: you can buy it now";

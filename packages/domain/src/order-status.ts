/**
 * The statuses of an order line (docs/product-rules.md §13 'Order status values'), in a file of their own: the catalogue
 * (ratings), the reviews and the orders all need them, and orders.ts imports the catalogue. Without zod, so
 * the storefront's shell and pages can use them (and the most units of a line) without loading it (ADR 0006).
 */

/** The statuses a purchase can have: everything but a wishlist or cart line (docs/product-rules.md §10.6's history asks these). */
export const PURCHASE_STATUSES = [
  "pending",
  "finished",
  "preparing",
  "onDelivery",
  "delivered",
  "cancelled",
] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];
export const isPurchaseStatus = (status: string): status is PurchaseStatus =>
  (PURCHASE_STATUSES as readonly string[]).includes(status);

/** The most units of one product a single add may ask for. */
export const ORDER_AMOUNT_MAX = 1000;

/** Every status of a line: a wishlist or cart line, or a purchase. */
export const ORDER_STATUSES = ["inWishList", "inCart", ...PURCHASE_STATUSES] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Orders that were paid and not cancelled: they hold their stock, count as sales and let buyers review. */
export const PAID_STATUSES = ["finished", "preparing", "onDelivery", "delivered"] as const;
export type PaidStatus = (typeof PAID_STATUSES)[number];
export const isPaidStatus = (status: string): status is PaidStatus =>
  (PAID_STATUSES as readonly string[]).includes(status);

/**
 * A purchase's one number: the checkout that paid it, single or bulk, as the shopper, the
 * e-mails, the back office and the provider (its external reference) all read it.
 */
export const orderNumber = (checkoutId: number) => `V-${String(checkoutId).padStart(6, "0")}`;

/** The checkout a number names: "V-000123" (or the bare id older checkouts were sent with); null otherwise. */
export function checkoutIdOf(reference: string): number | null {
  const match = /^(?:V-)?(\d{1,10})$/.exec(reference);
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** A purchase's number once a checkout paid it; null before. */
export const numberOf = (checkoutId: number | null) => (checkoutId === null ? null : orderNumber(checkoutId));

import { PAID_STATUSES } from "./order-status";

/**
 * What the storefront's pages need of reviews (docs/product-rules.md §1 Product detail 'Reviews'), without zod: every
 * product tile draws the stars, and the product page shows the form. The API's schemas are in reviews.ts.
 */
export const RATING_MAX = 5;
export const REVIEW_CONTENT_MAX = 2000;

/** The statuses of an order that make its buyer a verified one: paid, whatever happened next but a refund. */
export const REVIEWABLE_STATUSES = PAID_STATUSES;

/**
 * The storefront's delays (docs/product-rules.md §12) in one place, so a store can tune them without hunting through
 * components. All values are milliseconds. SPEC's fixed skeleton waits (2 s on the home page, 1.5 s before
 * the listing's grid) are left out on purpose: skeletons show only while data is loading (ADR 0017).
 */

/** Home banner: one sale slide to the next. */
export const BANNER_INTERVAL_MS = 5000;

/** Toasts close by themselves after this long. */
export const TOAST_DURATION_MS = 2000;

/** After a purchase is placed, the shopper goes to /purchase after this long. */
export const PURCHASE_REDIRECT_MS = 1000;

/** Header search: wait for a pause in typing before asking the server for suggestions. */
export const SEARCH_DEBOUNCE_MS = 200;

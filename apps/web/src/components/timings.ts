/**
 * The storefront's delays (SPEC.md §9) in one place, so a store can tune them without hunting through
 * components. All values are milliseconds.
 */

/** Home: skeleton placeholders stay this long after the categories have loaded. */
export const HOME_SKELETON_MS = 2000;

/** Product listing: the grid appears this long after the categories have loaded. */
export const LISTING_GRID_DELAY_MS = 1500;

/** Home banner: one sale slide to the next. */
export const BANNER_INTERVAL_MS = 5000;

/** Toasts close by themselves after this long. */
export const TOAST_DURATION_MS = 2000;

/** After a purchase is placed, the shopper goes to /purchase after this long. */
export const PURCHASE_REDIRECT_MS = 1000;

/** Header search: wait for a pause in typing before asking the server for suggestions. */
export const SEARCH_DEBOUNCE_MS = 200;

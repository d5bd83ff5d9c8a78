/**
 * What a Pay covered, by the /purchase address it started from (`?orders=12`, ADR 0015): a declined or
 * unfinished payment's "Try again" goes back to the same choice, not to everything pending. Kept for the tab
 * only (sessionStorage): the provider's page is in between.
 */
const KEY = "voltio.purchase.choice";
const CHOICE = /^\?(orders|bulk)=[\d,]+(&(orders|bulk)=[\d,]+)?$/;

export function rememberChoice(search: string) {
  try {
    sessionStorage.setItem(KEY, CHOICE.test(search) ? search : "");
  } catch {
    // Storage refused (a private window's quota): "Try again" shows everything pending, as before.
  }
}

/** The checkout address to go back to: the last Pay's choice in this tab, or everything pending. */
export function checkoutPath(): string {
  try {
    const search = typeof sessionStorage === "undefined" ? null : sessionStorage.getItem(KEY);
    return search && CHOICE.test(search) ? `/purchase${search}` : "/purchase";
  } catch {
    return "/purchase";
  }
}

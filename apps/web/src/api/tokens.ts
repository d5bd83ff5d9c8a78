/** docs/product-rules.md §13: the access and refresh tokens live in browser storage under the names access and refresh. */
export const tokens = {
  access: () => localStorage.getItem("access"),
  refresh: () => localStorage.getItem("refresh"),
  /** A shopper counts as logged in when both tokens are present (docs/product-rules.md §8, buy flow). */
  present: () => Boolean(localStorage.getItem("access") && localStorage.getItem("refresh")),
  /** The refresh token comes only with a login; a refresh brings a new access token alone. */
  set(access: string, refresh?: string) {
    localStorage.setItem("access", access);
    if (refresh !== undefined) localStorage.setItem("refresh", refresh);
  },
  clear() {
    localStorage.removeItem("access");
    localStorage.removeItem("refresh");
  },
};

/**
 * The text packs (i18n/index.ts) each page renders with, by its name in app/router.tsx: the router loads them
 * with the page (which type-checks the names), and the storefront's budget check (scripts/web-weight.ts)
 * weighs them with its first visit. No imports: the budget check reads it outside the browser build.
 */
export const PAGE_TEXTS = {
  // Compare (issue 41); the listing's and product page's parts of issue 41 load these texts with their code.
  ComparePage: ["catalogue"],
  LoginPage: ["account"],
  ForgotPasswordPage: ["account"],
  ResetPasswordPage: ["account", "security"],
  ProfilePage: ["account", "security", "shopping"],
  EmailLinkPage: ["account", "security"],
  PurchasesPage: ["shopping"],
  OrderPage: ["shopping"],
  CartPage: ["shopping"],
  WishlistPage: ["shopping"],
  CheckoutPage: ["shopping"],
  PaymentResultPage: ["shopping"],
  // The back office's forms share the account's texts, its customer pages the purchases'.
  AdminApp: ["admin", "account", "security", "shopping"],
} as const;

import { lazy, type ComponentType } from "react";
import { Route, Routes } from "react-router";
import { lazyWithTexts } from "@/i18n";
import { PAGE_TEXTS } from "./page-texts";
import { RequireAdmin, RequireUser } from "./guards";
import { Layout } from "./Layout";

/**
 * Declarative routes (ADR 0006): the data router's loaders and actions are unused here and cost 14 KB
 * gzipped on every page. Every page is its own lazy chunk: a shopper downloads only the current screen.
 */
export const lazyPages = {
  HomePage: lazy(() => import("@/features/catalog/HomePage")),
  ProductListPage: lazy(() => import("@/features/catalog/ProductListPage")),
  ProductPage: lazy(() => import("@/features/product/ProductPage")),
  ComparePage: lazyWithTexts(() => import("@/features/compare/ComparePage"), ...PAGE_TEXTS.ComparePage),
  AboutPage: lazy(() => import("@/features/about/AboutPage")),
  LoginPage: lazyWithTexts(() => import("@/features/auth/LoginPage"), ...PAGE_TEXTS.LoginPage),
  ForgotPasswordPage: lazyWithTexts(
    () => import("@/features/auth/ForgotPasswordPage"),
    ...PAGE_TEXTS.ForgotPasswordPage,
  ),
  ResetPasswordPage: lazyWithTexts(
    () => import("@/features/auth/ResetPasswordPage"),
    ...PAGE_TEXTS.ResetPasswordPage,
  ),
  ProfilePage: lazyWithTexts(() => import("@/features/account/ProfilePage"), ...PAGE_TEXTS.ProfilePage),
  EmailLinkPage: lazyWithTexts(() => import("@/features/account/EmailLinkPage"), ...PAGE_TEXTS.EmailLinkPage),
  PurchasesPage: lazyWithTexts(() => import("@/features/account/PurchasesPage"), ...PAGE_TEXTS.PurchasesPage),
  OrderPage: lazyWithTexts(() => import("@/features/account/OrderPage"), ...PAGE_TEXTS.OrderPage),
  CartPage: lazyWithTexts(() => import("@/features/cart/CartPage"), ...PAGE_TEXTS.CartPage),
  WishlistPage: lazyWithTexts(() => import("@/features/cart/WishlistPage"), ...PAGE_TEXTS.WishlistPage),
  CheckoutPage: lazyWithTexts(() => import("@/features/checkout/CheckoutPage"), ...PAGE_TEXTS.CheckoutPage),
  PaymentResultPage: lazyWithTexts(
    () => import("@/features/checkout/PaymentResultPage"),
    ...PAGE_TEXTS.PaymentResultPage,
  ),
  // The back office's texts come with it: no storefront page carries them.
  AdminApp: lazyWithTexts(() => import("@/features/admin/AdminApp"), ...PAGE_TEXTS.AdminApp),
  NotFoundPage: lazy(() => import("@/components/NotFoundPage")),
};

/** The server renders with the same pages imported eagerly: its render is synchronous (entry-server.tsx). */
export type Pages = Record<keyof typeof lazyPages, ComponentType>;

export function AppRoutes({ pages = lazyPages }: { pages?: Pages }) {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<pages.HomePage />} />
        <Route path="products" element={<pages.ProductListPage />} />
        <Route path="product/:id" element={<pages.ProductPage />} />
        <Route path="compare" element={<pages.ComparePage />} />
        <Route path="profiles" element={<pages.AboutPage />} />
        <Route path="login" element={<pages.LoginPage />} />
        <Route path="password/forgot" element={<pages.ForgotPasswordPage />} />
        <Route path="password/reset" element={<pages.ResetPasswordPage />} />
        {/* An e-mail change's links: opened from a mailbox, maybe in a browser that isn't signed in. */}
        <Route path="user/email/confirm" element={<pages.EmailLinkPage />} />
        <Route path="user/email/revert" element={<pages.EmailLinkPage />} />
        {/* Paths match in any case: the profile's Overview links to /Cart and /Wishlist (docs/product-rules.md §1). */}
        <Route path="cart" element={<pages.CartPage />} />
        <Route path="wishlist" element={<pages.WishlistPage />} />
        <Route element={<RequireUser />}>
          <Route path="user" element={<pages.ProfilePage />} />
          <Route path="purchases" element={<pages.PurchasesPage />} />
          <Route path="purchases/:number" element={<pages.OrderPage />} />
          <Route path="purchase" element={<pages.CheckoutPage />} />
          <Route path="purchase/success" element={<pages.PaymentResultPage />} />
          <Route path="purchase/failure" element={<pages.PaymentResultPage />} />
        </Route>
        <Route element={<RequireAdmin />}>
          <Route path="admin/*" element={<pages.AdminApp />} />
        </Route>
        <Route path="*" element={<pages.NotFoundPage />} />
      </Route>
    </Routes>
  );
}

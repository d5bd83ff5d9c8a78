import { lazy, type ComponentType } from "react";
import { Route, Routes } from "react-router";
import { loadAdminTexts } from "@/i18n";
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
  AboutPage: lazy(() => import("@/features/about/AboutPage")),
  LoginPage: lazy(() => import("@/features/auth/LoginPage")),
  ForgotPasswordPage: lazy(() => import("@/features/auth/ForgotPasswordPage")),
  ResetPasswordPage: lazy(() => import("@/features/auth/ResetPasswordPage")),
  ProfilePage: lazy(() => import("@/features/account/ProfilePage")),
  PurchasesPage: lazy(() => import("@/features/account/PurchasesPage")),
  OrderPage: lazy(() => import("@/features/account/OrderPage")),
  CartPage: lazy(() => import("@/features/cart/CartPage")),
  WishlistPage: lazy(() => import("@/features/cart/WishlistPage")),
  CheckoutPage: lazy(() => import("@/features/checkout/CheckoutPage")),
  PaymentResultPage: lazy(() => import("@/features/checkout/PaymentResultPage")),
  // The back office's texts come with it: no storefront page carries them.
  AdminApp: lazy(() =>
    Promise.all([import("@/features/admin/AdminApp"), loadAdminTexts()]).then(([page]) => page),
  ),
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
        <Route path="profiles" element={<pages.AboutPage />} />
        <Route path="login" element={<pages.LoginPage />} />
        <Route path="password/forgot" element={<pages.ForgotPasswordPage />} />
        <Route path="password/reset" element={<pages.ResetPasswordPage />} />
        {/* Paths match in any case: the profile's Overview links to /Cart and /Wishlist (SPEC.md §2). */}
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

import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StaticRouter } from "react-router";
import { renderWithBootReplies } from "./api/boot-data";
import { AppRoutes, type Pages } from "./app/router";
import { loadLazySections } from "./components/lazy-section";
import NotFoundPage from "./components/NotFoundPage";
import AboutPage from "./features/about/AboutPage";
import ProfilePage from "./features/account/ProfilePage";
import EmailLinkPage from "./features/account/EmailLinkPage";
import PurchasesPage from "./features/account/PurchasesPage";
import OrderPage from "./features/account/OrderPage";
import CartPage from "./features/cart/CartPage";
import WishlistPage from "./features/cart/WishlistPage";
import CheckoutPage from "./features/checkout/CheckoutPage";
import PaymentResultPage from "./features/checkout/PaymentResultPage";
import LoginPage from "./features/auth/LoginPage";
import ForgotPasswordPage from "./features/auth/ForgotPasswordPage";
import ResetPasswordPage from "./features/auth/ResetPasswordPage";
import HomePage from "./features/catalog/HomePage";
import ProductListPage from "./features/catalog/ProductListPage";
import ProductPage from "./features/product/ProductPage";
import ComparePage from "./features/compare/ComparePage";
import { en } from "./i18n/en";
import { es } from "./i18n/es";
import { accountEn } from "./i18n/account-en";
import { accountEs } from "./i18n/account-es";
import { securityEn } from "./i18n/security-en";
import { securityEs } from "./i18n/security-es";
import { shoppingEn } from "./i18n/shopping-en";
import { catalogueEn } from "./i18n/catalogue-en";
import { catalogueEs } from "./i18n/catalogue-es";
import { shoppingEs } from "./i18n/shopping-es";
import { adminEn } from "./i18n/admin-en";
import { adminEs } from "./i18n/admin-es";
import { renderInLanguage, type Language } from "./i18n";

/**
 * The storefront's HTML, rendered by the server (apps/server/src/modules/web/ssr.ts) from the same components
 * and the same API replies it embeds as boot data, so the first paint needs no script and the browser
 * hydrates it instead of drawing it again. Always a guest's view: what depends on the visitor's storage
 * (session, lists, theme) is filled in by the browser after hydration.
 */
const pages: Pages = {
  HomePage,
  ProductListPage,
  ProductPage,
  ComparePage,
  AboutPage,
  LoginPage,
  ForgotPasswordPage,
  ResetPasswordPage,
  ProfilePage,
  EmailLinkPage,
  PurchasesPage,
  OrderPage,
  CartPage,
  WishlistPage,
  CheckoutPage,
  PaymentResultPage,
  // The server renders a guest's view, which the admin guard turns away: the back office is never rendered here.
  AdminApp: () => null,
  NotFoundPage,
};

// The pages' lazy sections (components/lazy-section.tsx) render synchronously from here on: never a fallback.
await loadLazySections();

/** The server renders any page: it holds every text. */
const texts = {
  en: {
    core: en,
    packs: {
      account: accountEn,
      security: securityEn,
      shopping: shoppingEn,
      catalogue: catalogueEn,
      admin: adminEn,
    },
  },
  es: {
    core: es,
    packs: {
      account: accountEs,
      security: securityEs,
      shopping: shoppingEs,
      catalogue: catalogueEs,
      admin: adminEs,
    },
  },
};

export interface RenderRequest {
  /** Path and query, as the browser asked for it. */
  url: string;
  language: Language;
  /** The API replies embedded in the same page (boot data), keyed by API path. */
  replies: Record<string, unknown>;
}

export function render({ url, language, replies }: RenderRequest): string {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const html = renderInLanguage(language, texts[language], () =>
    renderWithBootReplies(replies, () =>
      renderToString(
        <StrictMode>
          <QueryClientProvider client={queryClient}>
            <StaticRouter location={url}>
              <AppRoutes pages={pages} />
            </StaticRouter>
          </QueryClientProvider>
        </StrictMode>,
      ),
    ),
  );
  queryClient.clear();
  return html;
}

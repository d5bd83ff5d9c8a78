import { Suspense, useEffect, useLayoutEffect } from "react";
import { Outlet, useLocation, useNavigationType } from "react-router";
import { useTranslation } from "@/i18n";
import { ToastHost } from "@/components/ui/ToastHost";
import { RoleChangeNotice } from "@/features/auth/RoleChangeNotice";
import { Footer } from "./Footer";
import { PageErrorBoundary } from "./PageErrorBoundary";
import { Header } from "./Header";

/** A new page starts at the top; back and forward keep the browser's own scroll restoration. */
function useScrollToTopOnNewPage() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType !== "POP") window.scrollTo(0, 0);
  }, [pathname, navigationType]);
}

/**
 * Marks <html data-hydrated> once the page's own boundary has hydrated: until then the server's HTML is on
 * screen but its buttons are inert (tests wait for it, e2e/fixtures.ts).
 */
function HydratedMark() {
  useEffect(() => document.documentElement.setAttribute("data-hydrated", ""), []);
  return null;
}

export function Layout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useScrollToTopOnNewPage();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-accent px-4 py-2 text-on-accent focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t("nav.skipToContent")}
      </a>
      <Header />
      {/* The footer comes with the page: drawn before a page the browser draws itself, it would be pushed
          down when the page arrives (a layout shift). */}
      <PageErrorBoundary resetKey={pathname}>
        <Suspense fallback={null}>
          <main
            id="main"
            tabIndex={-1}
            className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 focus:outline-none"
          >
            <Outlet />
            <HydratedMark />
          </main>
          <Footer />
        </Suspense>
      </PageErrorBoundary>
      <ToastHost />
      <RoleChangeNotice />
    </div>
  );
}

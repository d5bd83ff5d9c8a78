import { Outlet, ScrollRestoration } from "react-router";
import { useTranslation } from "react-i18next";
import { ToastHost } from "@/components/ui/ToastHost";
import { Footer } from "./Footer";
import { Header } from "./Header";

export function Layout() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-accent px-4 py-2 text-on-accent focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t("nav.skipToContent")}
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 focus:outline-none">
        <Outlet />
      </main>
      <Footer />
      <ToastHost />
      <ScrollRestoration />
    </div>
  );
}

import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { usePageTitle } from "@/components/page-title";

export function NotFoundPage({ message }: { message?: string }) {
  const { t } = useTranslation();
  const title = message ?? t("notFound.title");
  usePageTitle(t("titles.page", { page: title }));
  return (
    <section className="mx-auto max-w-md py-20 text-center">
      <p className="text-7xl font-black tracking-tight text-accent">404</p>
      <h1 className="mt-4 text-2xl font-bold text-ink">{title}</h1>
      <p className="mt-2 text-muted">{t("notFound.text")}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link
          to="/"
          className="rounded-xl bg-accent px-5 py-2.5 font-semibold text-on-accent hover:bg-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          {t("notFound.home")}
        </Link>
        <Link
          to="/products?offset=1"
          className="rounded-xl border border-line bg-card px-5 py-2.5 font-semibold text-ink hover:border-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          {t("catalog.allProducts")}
        </Link>
      </div>
    </section>
  );
}

export default NotFoundPage;

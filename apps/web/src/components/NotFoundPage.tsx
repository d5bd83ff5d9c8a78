import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { usePageTitle } from "@/components/page-title";
import { buttonClass } from "@/components/ui/Button";

/** The 404 screen: the router's catch-all, and the product page's for a product that doesn't exist. */
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
        <Link to="/" className={buttonClass()}>
          {t("notFound.home")}
        </Link>
        <Link to="/products?offset=1" className={buttonClass({ variant: "secondary" })}>
          {t("catalog.allProducts")}
        </Link>
      </div>
    </section>
  );
}

export default NotFoundPage;

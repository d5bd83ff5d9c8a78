import { Link } from "react-router";
import { useTranslation } from "react-i18next";

export function NotFoundPage({ message }: { message?: string }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-md py-20 text-center">
      <p className="text-6xl font-black text-accent">404</p>
      <h1 className="mt-4 text-2xl font-bold text-ink">{message ?? t("notFound.title")}</h1>
      <p className="mt-2 text-muted">{t("notFound.text")}</p>
      <Link
        to="/"
        className="mt-6 inline-block rounded-xl bg-accent px-5 py-2.5 font-medium text-white hover:bg-accent-strong"
      >
        {t("notFound.home")}
      </Link>
    </section>
  );
}

export default NotFoundPage;

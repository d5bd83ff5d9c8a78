import { useTranslation } from "react-i18next";

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="mt-16 border-t border-line bg-card">
      <div className="mx-auto max-w-7xl px-4 py-8 text-sm text-muted">{t("footer.rights")}</div>
    </footer>
  );
}

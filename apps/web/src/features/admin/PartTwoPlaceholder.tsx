import { Construction } from "lucide-react";
import { useTranslation } from "@/i18n";
import { Card } from "@/components/ui/Card";
import { usePageTitle } from "@/components/page-title";

/** Orders, users and the newsletter (and SPEC.md's /admin/order/{id}, placeholder text only) until part 2. */
export function PartTwoPlaceholder() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("admin.title") }));
  return (
    <Card size="lg" className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <Construction size={32} aria-hidden className="text-accent-strong" />
      <h1 className="text-xl font-bold text-ink">{t("admin.comingSoon")}</h1>
      <p className="max-w-md text-sm text-muted">{t("admin.comingSoonHint")}</p>
    </Card>
  );
}

import { Link } from "react-router";
import { comparePath, useCompareList } from "@/components/compare-list";
import { textLinkClass } from "@/components/ui/text-link";
import { useTranslation } from "@/i18n";

/** The products chosen to compare (issue 41), as a link to their compare page; nothing when none are. */
export function CompareLink() {
  const { t } = useTranslation();
  const compared = useCompareList();
  if (compared.length === 0) return null;
  return (
    <Link
      to={comparePath(compared.map((item) => item.id))}
      className={`mt-1 inline-block text-sm font-semibold ${textLinkClass}`}
    >
      {t("compare.link", { count: compared.length })}
    </Link>
  );
}

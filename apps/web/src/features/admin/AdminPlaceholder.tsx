import { Link, useParams } from "react-router";
import { Compass, ReceiptText } from "lucide-react";
import { useTranslation } from "@/i18n";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { usePageTitle } from "@/components/page-title";

/**
 * docs/product-rules.md §1's /admin/order/{idOrder} is placeholder text only: it names the order and points to 'All
 * Orders', where every order opens to its details. Any other unknown admin path gets the general text.
 */
export function AdminPlaceholder() {
  const { t } = useTranslation();
  const { id } = useParams();
  const title = id ? t("admin.orders.placeholder.title", { id }) : t("admin.unknownScreen");
  usePageTitle(t("titles.page", { page: id ? title : t("admin.title") }));
  return (
    <Card size="lg" className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      {id ? (
        <ReceiptText size={32} aria-hidden className="text-accent-strong" />
      ) : (
        <Compass size={32} aria-hidden className="text-accent-strong" />
      )}
      <h1 className="text-xl font-bold text-ink">{title}</h1>
      <p className="max-w-md text-sm text-muted">
        {id ? t("admin.orders.placeholder.hint") : t("admin.unknownScreenHint")}
      </p>
      {id && (
        <Link to="/admin/orders" className={buttonClass({ variant: "secondary", size: "md" })}>
          {t("admin.orders.placeholder.link")}
        </Link>
      )}
    </Card>
  );
}

import { useId } from "react";
import { Link } from "react-router";
import { Bell, BellRing } from "lucide-react";
import { ApiError } from "@/api/client";
import { useSession } from "@/api/session";
import { Button } from "@/components/ui/Button";
import { textLinkClass } from "@/components/ui/text-link";
import { showToast } from "@/components/ui/toast";
import { useTranslation } from "@/i18n";
import { useSetStockAlert, useStockAlert } from "./stock-alert-api";

/**
 * Back in stock, under a sold-out product's stock: a signed-in shopper asks to be e-mailed
 * once when it can be bought again, and can cancel; a guest gets a link to log in for it. Admins can't buy,
 * so they see nothing. While a stored login is being checked nothing shows, rather than a wrong offer.
 */
export function StockAlert({ productId, variantId }: { productId: number; variantId?: number }) {
  const { t } = useTranslation();
  const { user, isAdmin, pending } = useSession();
  if (pending || isAdmin) return null;
  if (!user)
    return (
      <p className="flex items-center gap-2 text-sm text-muted">
        <Bell size={16} aria-hidden className="shrink-0" />
        <Link to="/login" className={`font-semibold text-accent-strong ${textLinkClass}`}>
          {t("stockAlert.logIn")}
        </Link>
      </p>
    );
  return <StockAlertToggle productId={productId} variantId={variantId} />;
}

function StockAlertToggle({ productId, variantId }: { productId: number; variantId?: number }) {
  const { t } = useTranslation();
  const statusId = useId();
  const alert = useStockAlert(productId, true, variantId);
  const change = useSetStockAlert(productId, variantId);
  const requested = alert.data?.requested ?? false;

  const toggle = () => {
    // Not `disabled` while saving: a disabled button would drop the keyboard focus.
    if (change.isPending) return;
    change.mutate(!requested, {
      onError: (error) => {
        // Restocked meanwhile: nothing to wait for (the hook reads the product again).
        if (error instanceof ApiError && error.status === 409) showToast(t("stockAlert.inStockNow"));
        else showToast(t("stockAlert.failed"), "error");
      },
    });
  };

  return (
    // Side by side when the card is wide enough (a container query: the card is narrow beside the pictures).
    <div className="@container">
      <div className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-3 @md:flex-row @md:items-center">
        {/* Announced when it changes; one button stays in place, so keyboard focus stays on it. */}
        <p
          id={statusId}
          role="status"
          className={`flex flex-1 items-center gap-2 text-sm ${requested ? "font-medium text-ink" : "text-muted"}`}
        >
          {requested ? (
            <BellRing size={18} aria-hidden className="shrink-0 text-accent-strong" />
          ) : (
            <Bell size={18} aria-hidden className="shrink-0" />
          )}
          {requested ? t("stockAlert.requested") : t("stockAlert.soldOut")}
        </p>
        <Button
          variant={requested ? "ghost" : "secondary"}
          size="md"
          disabled={alert.isPending}
          aria-busy={change.isPending}
          aria-describedby={requested ? statusId : undefined}
          onClick={toggle}
          className="shrink-0"
        >
          {requested ? t("stockAlert.cancel") : t("stockAlert.ask")}
        </Button>
      </div>
    </div>
  );
}

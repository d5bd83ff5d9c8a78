import { Link } from "react-router";
import { X } from "lucide-react";
import { useTranslation } from "@/i18n";
import { formatDollars } from "@voltio/domain/money";
import { IconButton } from "@/components/ui/IconButton";
import { textLinkClass } from "@/components/ui/text-link";
import { Thumbnail } from "@/components/ui/Thumbnail";
import type { Line, LineActions } from "./checkout-line";
import { LineCharges } from "./LineCharges";

interface PendingLinesProps extends LineActions {
  lines: Line[];
  /** Only lines bought on their own can be removed. */
  onRemove?: (line: Line) => void;
  /** A line waiting apart: added to this purchase. */
  onAdd?: (line: Line) => void;
}

export function PendingLines({ lines, onRemove, onAdd, onBackToCart, busy }: PendingLinesProps) {
  const { t } = useTranslation();
  return (
    <ul className="divide-y divide-line">
      {lines.map((line) => (
        <li key={line.order.id} className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
          <Thumbnail src={line.product.images[0]?.url} width={64} height={64} lazy className="h-16 w-16" />
          <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
            <Link to={`/product/${line.product.id}`} className={`line-clamp-2 text-ink ${textLinkClass}`}>
              {line.pending.title}
            </Link>
            <LineCharges line={line.pending} />
            <div className="flex flex-wrap gap-x-3 gap-y-1">
              {onAdd && (
                <button
                  type="button"
                  onClick={() => onAdd(line)}
                  disabled={busy}
                  aria-label={t("money.addToPurchaseNamed", { title: line.pending.title })}
                  className={`self-start text-sm font-semibold text-accent-strong disabled:opacity-60 ${textLinkClass}`}
                >
                  {t("money.addToPurchase")}
                </button>
              )}
              <button
                type="button"
                onClick={() => onBackToCart(line)}
                disabled={busy}
                aria-label={t("money.backToCartNamed", { title: line.pending.title })}
                className={`self-start text-sm font-semibold text-accent-strong disabled:opacity-60 ${textLinkClass}`}
              >
                {t("money.backToCart")}
              </button>
            </div>
          </div>
          <span className="font-semibold text-ink tabular-nums">
            {t("checkout.lineTotal", { price: formatDollars(line.order.lineTotal) })}
          </span>
          {onRemove && (
            <IconButton
              label={t("checkout.remove", { title: line.pending.title })}
              icon={<X size={18} aria-hidden />}
              size="sm"
              onClick={() => onRemove(line)}
              disabled={busy}
            />
          )}
        </li>
      ))}
    </ul>
  );
}

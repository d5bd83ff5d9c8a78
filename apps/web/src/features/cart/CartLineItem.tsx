import { Link } from "react-router";
import { Minus, Plus, Truck, X } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { ListLine } from "@/api/list-lines";
import { DiscountBadge } from "@/components/ui/DiscountBadge";
import { IconButton } from "@/components/ui/IconButton";
import { dollarsText } from "./cart-summary";
import { textLinkClass } from "@/components/ui/text-link";

interface CartLineItemProps {
  line: ListLine;
  onChangeAmount: (line: ListLine, delta: 1 | -1) => void;
  onRemove: (line: ListLine) => void;
  /** Being bought (Buy All on its way to checkout): shown, but no longer changed here. */
  disabled?: boolean;
}

/**
 * One cart line (docs/product-rules.md §1 Cart): picture and title linking to the product, shipping, remove (x), minus and
 * plus around the amount, the line's price, 'Stock: {n}' and the sale's badge.
 */
export function CartLineItem({ line, onChangeAmount, onRemove, disabled = false }: CartLineItemProps) {
  const { t } = useTranslation();
  const productPath = `/product/${line.productId}`;
  return (
    <li className="flex gap-3 py-5 first:pt-0 last:pb-0 sm:gap-5">
      <Link
        to={productPath}
        tabIndex={-1}
        aria-hidden
        className="h-20 w-20 shrink-0 overflow-hidden rounded-xl bg-accent-soft sm:h-28 sm:w-28"
      >
        {line.image && (
          <img src={line.image} alt="" width={112} height={112} className="h-full w-full object-contain" />
        )}
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex items-start gap-2">
          <h2 className="min-w-0 flex-1 pt-1 text-sm leading-5 font-medium text-ink sm:text-base">
            <Link to={productPath} className={`line-clamp-2 ${textLinkClass}`}>
              {line.title}
            </Link>
          </h2>
          <IconButton
            label={t("buttons.removeFromCartNamed", { title: line.title })}
            icon={<X size={18} aria-hidden />}
            size="sm"
            onClick={() => onRemove(line)}
            disabled={disabled}
            className="-mt-1 -mr-2"
          />
        </div>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
          {line.shippingCents === 0 ? (
            <span className="inline-flex items-center gap-1 font-medium text-success">
              <Truck size={14} aria-hidden />
              {t("catalog.freeShipping")}
            </span>
          ) : (
            <span>{t("cart.shippingCost", { cost: dollarsText(line.shippingCents) })}</span>
          )}
          <span>{t("catalog.stock", { count: line.stock })}</span>
        </p>
        {line.price?.sale && <DiscountBadge sale={line.price.sale} className="self-start" />}
        <div className="mt-1 flex flex-wrap items-center justify-between gap-3">
          <div
            role="group"
            aria-label={t("cart.quantityOf", { title: line.title })}
            className="inline-flex items-center rounded-xl border border-line"
          >
            <IconButton
              label={t("cart.oneLess", { title: line.title })}
              icon={<Minus size={16} aria-hidden />}
              size="sm"
              shape="square"
              onClick={() => onChangeAmount(line, -1)}
              disabled={disabled}
            />
            <output className="min-w-8 text-center text-sm font-semibold text-ink tabular-nums">
              {line.amount}
            </output>
            <IconButton
              label={t("cart.oneMore", { title: line.title })}
              icon={<Plus size={16} aria-hidden />}
              size="sm"
              shape="square"
              onClick={() => onChangeAmount(line, 1)}
              disabled={disabled}
            />
          </div>
          <p className="text-base font-bold text-ink tabular-nums sm:text-lg">
            {line.totalCents === null ? "…" : t("cart.linePrice", { price: dollarsText(line.totalCents) })}
          </p>
        </div>
      </div>
    </li>
  );
}

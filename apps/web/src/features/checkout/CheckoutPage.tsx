import { Link, Navigate } from "react-router";
import { CreditCard, X } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { OrderedProduct, ProductOrder } from "@voltio/domain/orders";
import { formatDollars } from "@voltio/domain/money";
import { ApiError } from "@/api/client";
import { useBulkOrders, useOrders, useRemoveListLine } from "@/api/orders";
import { useSession } from "@/api/session";
import { usePageTitle } from "@/components/page-title";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { IconButton } from "@/components/ui/IconButton";
import { showToast } from "@/components/ui/toast";
import { textLinkClass } from "@/components/ui/text-link";

const PENDING = ["pending"] as const;

/**
 * /purchase until the checkout issue (SPEC.md §2 Checkout, §4 Checkout removal): what the shopper bought and
 * hasn't paid yet, at the prices the server snapshotted when it became pending. Lines bought alone can be
 * removed (x); a bulk order's lines stay together.
 */
export function CheckoutPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("checkout.title") }));
  const { isAdmin } = useSession();
  const single = useOrders(PENDING, { enabled: !isAdmin });
  const bulk = useBulkOrders(PENDING, { enabled: !isAdmin });
  const remove = useRemoveListLine();

  if (isAdmin) return <Navigate to="/" replace />;

  const singleLines = (single.data ?? []).flatMap((product) =>
    product.orders.filter((order) => order.status === "pending").map((order) => ({ product, order })),
  );
  const bulkOrders = bulk.data ?? [];
  const onRemove = (product: OrderedProduct, order: ProductOrder) =>
    remove.mutate(order.id, {
      onSuccess: () => showToast(t("checkout.removed")),
      onError: (error) =>
        showToast(error instanceof ApiError ? error.message : t("toasts.listFailed"), "error"),
    });

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t("checkout.title")}</h1>
      {single.isPending || bulk.isPending ? (
        <p role="status" className="text-muted">
          {t("common.loading")}
        </p>
      ) : singleLines.length === 0 && bulkOrders.length === 0 ? (
        <Card size="lg" className="flex flex-col items-center gap-4 px-6 py-14 text-center">
          <span className="grid h-20 w-20 place-items-center rounded-full bg-accent-soft text-accent-strong">
            <CreditCard size={40} aria-hidden />
          </span>
          <p className="text-xl font-semibold text-ink">{t("checkout.empty")}</p>
          <p className="max-w-sm text-sm text-muted">{t("checkout.emptyHint")}</p>
          <Link to="/cart" className={buttonClass()}>
            {t("checkout.goToCart")}
          </Link>
        </Card>
      ) : (
        <>
          {bulkOrders.map((order) => {
            const lines = order.products.flatMap((product) =>
              product.orders.map((line) => ({ product, order: line })),
            );
            return (
              <Card
                as="section"
                size="lg"
                key={order.id}
                aria-labelledby={`bulk-${order.id}`}
                className="p-5"
              >
                <h2 id={`bulk-${order.id}`} className="mb-4 font-semibold text-ink">
                  {t("checkout.bulkOrder", { count: lines.length })}
                </h2>
                <PendingLines lines={lines} />
              </Card>
            );
          })}
          {singleLines.length > 0 && (
            <Card as="section" size="lg" aria-labelledby="pending-lines" className="p-5">
              <h2 id="pending-lines" className="mb-4 font-semibold text-ink">
                {t("checkout.pending")}
              </h2>
              <PendingLines lines={singleLines} onRemove={onRemove} />
            </Card>
          )}
        </>
      )}
    </div>
  );
}

interface PendingLinesProps {
  lines: { product: OrderedProduct; order: ProductOrder }[];
  /** Only lines bought on their own can be removed. */
  onRemove?: (product: OrderedProduct, order: ProductOrder) => void;
}

function PendingLines({ lines, onRemove }: PendingLinesProps) {
  const { t } = useTranslation();
  return (
    <ul className="divide-y divide-line">
      {lines.map(({ product, order }) => (
        <li key={order.id} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
          <img
            src={product.images[0]?.url}
            alt=""
            width={64}
            height={64}
            loading="lazy"
            className="h-16 w-16 shrink-0 rounded-lg bg-accent-soft object-contain"
          />
          <div className="flex min-w-0 flex-1 flex-col text-sm">
            <Link to={`/product/${product.id}`} className={`line-clamp-2 text-ink ${textLinkClass}`}>
              {product.title}
            </Link>
            <span className="text-muted">{t("purchases.amount", { count: order.amount })}</span>
          </div>
          <span className="font-semibold text-ink tabular-nums">
            {t("checkout.lineTotal", { price: formatDollars(order.lineTotal) })}
          </span>
          {onRemove && (
            <IconButton
              label={t("checkout.remove", { title: product.title })}
              icon={<X size={18} aria-hidden />}
              size="sm"
              onClick={() => onRemove(product, order)}
            />
          )}
        </li>
      ))}
    </ul>
  );
}

export default CheckoutPage;

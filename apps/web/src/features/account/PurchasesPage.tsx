import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { ShoppingBag } from "lucide-react";
import type { OrderedProduct, ProductOrder } from "@voltio/domain/orders";
import { PURCHASE_STATUSES } from "@voltio/domain/order-status";
import { useBulkOrders } from "@/api/orders";
import { usePageTitle } from "@/components/page-title";
import { formatDollars } from "@voltio/domain/money";
import type { PurchaseSummary } from "@voltio/domain/purchase";
import { focusRingClass } from "@/components/ui/focus-ring";
import { OrderedProductTile } from "./OrderedProductTile";
import { localDateTime } from "./date-format";
import { useOrderList } from "./orders";
import { usePurchaseSummaries } from "./purchase-api";
import { StatusBadge } from "./StatusBadge";

interface Purchase {
  product: OrderedProduct;
  order: ProductOrder;
  /** The purchase's number once paid ('V-000123'): the line's, or its bulk order's. */
  number: string | null;
}

const purchasesOf = (products: OrderedProduct[], bulkNumber: string | null = null): Purchase[] =>
  products.flatMap((product) =>
    product.orders.map((order) => ({ product, order, number: order.number ?? bulkNumber })),
  );

/** One card per paid purchase (its number), newest first; lines waiting for payment on a card of their own. */
function cardsOf(purchases: Purchase[], summaries: readonly PurchaseSummary[]) {
  const byNumber = new Map<string, Purchase[]>();
  const unpaid: Purchase[] = [];
  for (const purchase of [...purchases].sort((a, b) => a.order.id - b.order.id)) {
    if (purchase.number) byNumber.set(purchase.number, [...(byNumber.get(purchase.number) ?? []), purchase]);
    else unpaid.push(purchase);
  }
  const known = new Set(summaries.map((summary) => summary.number));
  const cards: { number: string | null; summary?: PurchaseSummary; lines: Purchase[] }[] = [
    ...summaries.map((summary) => ({
      number: summary.number,
      summary,
      lines: byNumber.get(summary.number) ?? [],
    })),
    // Paid since the summaries were read: shown at once, completed by the next read.
    ...[...byNumber].filter(([number]) => !known.has(number)).map(([number, lines]) => ({ number, lines })),
  ];
  return unpaid.length ? [{ number: null, lines: unpaid }, ...cards] : cards;
}

/**
 * /purchases (docs/product-rules.md §1, Purchases history): one card per purchase with its number (a link
 * to its order page), local date, total and status, and every product it bought with what it cost and where
 * it stands; lines still waiting for payment on a card of their own.
 */
export function PurchasesPage() {
  const { t, language } = useTranslation();
  usePageTitle(t("titles.page", { page: t("purchases.title") }));
  const single = useOrderList("purchases");
  const bulk = useBulkOrders(PURCHASE_STATUSES);
  const summaries = usePurchaseSummaries();
  const cards = cardsOf(
    [
      ...purchasesOf(single.data ?? []),
      ...(bulk.data ?? []).flatMap((order) => purchasesOf(order.products, order.number)),
    ],
    summaries.data ?? [],
  );
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t("purchases.title")}</h1>
      {single.isPending || bulk.isPending || summaries.isPending ? (
        <p role="status" className="text-muted">
          {t("common.loading")}
        </p>
      ) : cards.length === 0 ? (
        <Card size="lg" className="flex flex-col items-center gap-4 px-6 py-16 text-center">
          <span className="grid h-20 w-20 place-items-center rounded-full bg-accent-soft text-accent-strong">
            <ShoppingBag size={40} aria-hidden />
          </span>
          <p className="text-lg font-medium text-ink">{t("purchases.empty")}</p>
          <Link to="/products?offset=1" className={buttonClass()}>
            {t("catalog.allProducts")}
          </Link>
        </Card>
      ) : (
        cards.map(({ number, summary, lines }) => {
          const headingId = `purchase-${number ?? "unpaid"}`;
          return (
            <Card as="section" size="lg" key={number ?? "unpaid"} aria-labelledby={headingId} className="p-5">
              <div className="mb-4 flex flex-wrap items-start justify-between gap-x-6 gap-y-2">
                <div className="flex flex-col gap-0.5">
                  <h2 id={headingId} className="font-semibold text-ink">
                    {number ? (
                      <Link
                        to={`/purchases/${number}`}
                        className={`text-accent-strong underline-offset-2 hover:underline ${focusRingClass}`}
                      >
                        {t("purchases.number", { number })}
                      </Link>
                    ) : (
                      t("orderPage.unpaid")
                    )}
                  </h2>
                  {summary && (
                    <p className="text-sm text-muted">
                      <time dateTime={summary.purchaseDate}>
                        {localDateTime(summary.purchaseDate, language)}
                      </time>
                    </p>
                  )}
                </div>
                {summary && (
                  <div className="flex flex-col items-start gap-1 sm:items-end">
                    <p className="font-semibold text-ink tabular-nums">
                      {t("orderPage.cardTotal", { total: formatDollars(summary.total) })}
                    </p>
                    <p className="flex flex-wrap gap-1">
                      {summary.statuses.map((status) => (
                        <StatusBadge key={status} status={status} />
                      ))}
                    </p>
                  </div>
                )}
                {!number && (
                  <Link to="/purchase" className={buttonClass({ size: "sm" })}>
                    {t("orderPage.toCheckout")}
                  </Link>
                )}
              </div>
              <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
                {lines.map(({ product, order, number: lineNumber }) => (
                  <li key={order.id}>
                    <OrderedProductTile product={product} price={order.unitPrice} layout="beside">
                      <span className="text-muted">{t("purchases.amount", { count: order.amount })}</span>
                      {lineNumber && (
                        <span className="font-mono text-xs text-muted">
                          {t("purchases.number", { number: lineNumber })}
                        </span>
                      )}
                      <span className="mt-1">
                        <StatusBadge status={order.status} />
                      </span>
                    </OrderedProductTile>
                  </li>
                ))}
              </ul>
            </Card>
          );
        })
      )}
    </div>
  );
}

export default PurchasesPage;

import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { ShoppingBag } from "lucide-react";
import type { OrderedProduct, ProductOrder } from "@voltio/domain/orders";
import { PURCHASE_STATUSES } from "@voltio/domain/order-status";
import { useBulkOrders } from "@/api/orders";
import { usePageTitle } from "@/components/page-title";
import { OrderedProductTile } from "./OrderedProductTile";
import { useOrderList } from "./orders";

/** SPEC.md §9: a purchase heading is the first 24 characters of its local purchase date. */
const HEADING_LENGTH = 24;

interface Purchase {
  product: OrderedProduct;
  order: ProductOrder;
  /** The purchase's number once paid ('V-000123'): the line's, or its bulk order's. */
  number: string | null;
}

/** Newest purchases first, grouped under their heading. */
function groupByDate(purchases: Purchase[]) {
  const groups = new Map<string, Purchase[]>();
  for (const purchase of [...purchases].sort((a, b) => b.order.id - a.order.id)) {
    const heading = (purchase.order.localPurchaseDate ?? "").slice(0, HEADING_LENGTH);
    groups.set(heading, [...(groups.get(heading) ?? []), purchase]);
  }
  return [...groups.entries()];
}

const purchasesOf = (products: OrderedProduct[], bulkNumber: string | null = null): Purchase[] =>
  products.flatMap((product) =>
    product.orders.map((order) => ({ product, order, number: order.number ?? bulkNumber })),
  );

const STATUS_STYLE: Record<string, string> = {
  pending: "bg-surface text-muted",
  cancelled: "bg-sale/10 text-sale",
};

/**
 * /purchases (SPEC.md §2, Purchases history; issue 10 point 7), behind the login guard: every line the
 * shopper bought, alone or in a bulk order, grouped by date, each with what it cost and where it stands.
 */
export function PurchasesPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("purchases.title") }));
  const single = useOrderList("purchases");
  const bulk = useBulkOrders(PURCHASE_STATUSES);
  const groups = groupByDate([
    ...purchasesOf(single.data ?? []),
    ...(bulk.data ?? []).flatMap((order) => purchasesOf(order.products, order.number)),
  ]);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t("purchases.title")}</h1>
      {single.isPending || bulk.isPending ? (
        <p role="status" className="text-muted">
          {t("common.loading")}
        </p>
      ) : groups.length === 0 ? (
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
        groups.map(([heading, purchases]) => (
          <Card as="section" size="lg" key={heading} aria-label={heading} className="p-5">
            <h2 className="mb-4 font-semibold text-ink">{heading}</h2>
            <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              {purchases.map(({ product, order, number }) => (
                <li key={order.id}>
                  <OrderedProductTile product={product} price={order.unitPrice} layout="beside">
                    <span className="text-muted">{t("purchases.amount", { count: order.amount })}</span>
                    {number && (
                      <span className="font-mono text-xs text-muted">
                        {t("purchases.number", { number })}
                      </span>
                    )}
                    <span
                      className={`mt-1 rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[order.status] ?? "bg-accent-soft text-accent-strong"}`}
                    >
                      {t(`purchases.status.${order.status}`)}
                    </span>
                  </OrderedProductTile>
                </li>
              ))}
            </ul>
          </Card>
        ))
      )}
    </div>
  );
}

export default PurchasesPage;

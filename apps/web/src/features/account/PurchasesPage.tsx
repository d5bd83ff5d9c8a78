import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { ShoppingBag } from "lucide-react";
import { formatDollars } from "@voltio/domain/money";
import { usePageTitle } from "@/components/page-title";
import { useOrderList, type OrderProduct } from "./orders";

/** SPEC.md §9: a purchase heading is the first 24 characters of its local purchase date. */
const HEADING_LENGTH = 24;

function groupByDate(products: OrderProduct[]) {
  const groups = new Map<string, { product: OrderProduct; amount: number }[]>();
  for (const product of products) {
    for (const order of product.orders?.length ? product.orders : [{ id: 0, amount: 1 }]) {
      const date = ("localPurchaseDate" in order && order.localPurchaseDate) || "";
      const heading = date.slice(0, HEADING_LENGTH);
      groups.set(heading, [...(groups.get(heading) ?? []), { product, amount: order.amount }]);
    }
  }
  return [...groups.entries()];
}

/**
 * /purchases (SPEC.md §2, Purchases history), behind the login guard: the shopper's purchases grouped by
 * date. It reads GET /order; until the orders API exists it shows the empty state.
 */
export function PurchasesPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("purchases.title") }));
  const { data, isPending } = useOrderList("purchases");
  const groups = groupByDate(data ?? []);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t("purchases.title")}</h1>
      {isPending ? (
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
        groups.map(([heading, lines]) => (
          <Card as="section" size="lg" key={heading} aria-label={heading} className="p-5">
            <h2 className="mb-4 font-semibold text-ink">{heading}</h2>
            <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              {lines.map(({ product, amount }, index) => (
                <li key={`${product.id}-${index}`}>
                  <Link
                    to={`/product/${product.id}`}
                    className="flex gap-3 rounded-2xl border border-line p-3 hover:border-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
                  >
                    <img
                      src={product.images[0]?.url}
                      alt=""
                      width={64}
                      height={64}
                      loading="lazy"
                      className="h-16 w-16 shrink-0 rounded-lg object-contain"
                    />
                    <span className="flex min-w-0 flex-col text-sm">
                      <span className="line-clamp-2 text-ink">{product.title}</span>
                      <span className="font-semibold text-ink">US$ {formatDollars(product.price)}</span>
                      <span className="text-muted">{t("purchases.amount", { count: amount })}</span>
                    </span>
                  </Link>
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

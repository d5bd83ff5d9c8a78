import { Link, Navigate, useSearchParams } from "react-router";
import { CreditCard } from "lucide-react";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { useBulkOrders, useOrders, useRemoveListLine } from "@/api/orders";
import { useSession } from "@/api/session";
import { usePageTitle } from "@/components/page-title";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import { useBackToCart } from "./api";
import { BulkOrderCard } from "./BulkOrderCard";
import { lineOf, type Line } from "./checkout-line";
import { PaymentSummary } from "./PaymentSummary";
import { PendingLines } from "./PendingLines";

const PENDING = ["pending"] as const;

/** `?orders=12,13&bulk=4`: the ids of what this purchase pays. */
const idsOf = (value: string | null) =>
  new Set(
    (value ?? "")
      .split(",")
      .map(Number)
      .filter((id) => Number.isInteger(id) && id > 0),
  );

/** What this purchase pays (ADR 0015): the ids in the address, or everything pending when it names none. */
function useChoice() {
  const [params, setParams] = useSearchParams();
  const everything = !params.has("orders") && !params.has("bulk");
  const orders = idsOf(params.get("orders"));
  const bulks = idsOf(params.get("bulk"));
  // Opened for everything pending, everything is in it already: a line cut to what is left joins by itself.
  const add = (kind: "orders" | "bulk", id: number) =>
    everything ||
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(kind, [...idsOf(current.get(kind)), id].join(","));
        return next;
      },
      { replace: true },
    );
  return {
    hasOrder: (id: number) => everything || orders.has(id),
    hasBulk: (id: number) => everything || bulks.has(id),
    add,
  };
}

/**
 * /purchase (docs/product-rules.md §1 Checkout, §8 Checkout removal and Payment): exactly what this payment
 * charges, at the prices the server snapshotted when it became pending — after a Buy now, that line only
 * (`?orders=12`); opened directly or after Buy All, everything pending — the address to ship to, the sums by
 * the one money rule (ADR 0015) and the provider's pay button. The other pending orders wait apart, to be
 * added. Every line can go back to the cart; lines bought alone can be removed (x); a bulk order's lines go
 * back together or one by one. The server charges its own figures: these are the same rules drawn for the
 * shopper.
 */
export function CheckoutPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("checkout.title") }));
  const { isAdmin } = useSession();
  const single = useOrders(PENDING, { enabled: !isAdmin });
  const bulk = useBulkOrders(PENDING, { enabled: !isAdmin });
  const remove = useRemoveListLine();
  const choice = useChoice();
  const failed = (error: unknown, fallback: string) =>
    showToast(error instanceof ApiError ? error.message : fallback, "error");
  const backToCart = useBackToCart({
    onSuccess: () => showToast(t("money.movedToCart")),
    onError: (error) => failed(error, t("money.moveFailed")),
  });

  if (isAdmin) return <Navigate to="/" replace />;

  const singleLines = (single.data ?? []).flatMap((product) =>
    product.orders.filter((order) => order.status === "pending").map((order) => lineOf(product, order)),
  );
  const bulkOrders = (bulk.data ?? []).map((order) => ({
    id: order.id,
    lines: order.products.flatMap((product) => product.orders.map((line) => lineOf(product, line, true))),
  }));
  const chosenSingles = singleLines.filter((line) => choice.hasOrder(line.order.id));
  const otherSingles = singleLines.filter((line) => !choice.hasOrder(line.order.id));
  const chosenBulks = bulkOrders.filter((order) => choice.hasBulk(order.id));
  const otherBulks = bulkOrders.filter((order) => !choice.hasBulk(order.id));
  const chosenLines = [...chosenBulks.flatMap((order) => order.lines), ...chosenSingles];
  const anyPending = singleLines.length + bulkOrders.length > 0;

  const onRemove = ({ order }: Line) =>
    remove.mutate(order.id, {
      onSuccess: () => showToast(t("checkout.removed")),
      onError: (error) => failed(error, t("toasts.listFailed")),
    });
  const onBackToCart = (lines: readonly Line[]) => backToCart.mutate(lines.map((line) => line.order.id));
  const lineActions = { onBackToCart: (line: Line) => onBackToCart([line]), busy: backToCart.isPending };

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t("checkout.title")}</h1>
      {single.isPending || bulk.isPending ? (
        <p role="status" className="text-muted">
          {t("common.loading")}
        </p>
      ) : !anyPending ? (
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
        <div className="grid items-start gap-6 lg:grid-cols-[1fr_22rem]">
          <div className="flex flex-col gap-6">
            {chosenLines.length === 0 && (
              <p role="status" className="rounded-2xl border border-line bg-card p-4 text-sm text-ink">
                {t("money.nothingChosen")}
              </p>
            )}
            {chosenBulks.map((order) => (
              <BulkOrderCard
                key={order.id}
                order={order}
                actions={lineActions}
                onAllBack={() => onBackToCart(order.lines)}
              />
            ))}
            {chosenSingles.length > 0 && (
              <Card as="section" size="lg" aria-labelledby="pending-lines" className="p-5">
                <h2 id="pending-lines" className="mb-4 font-semibold text-ink">
                  {t("checkout.pending")}
                </h2>
                <PendingLines lines={chosenSingles} onRemove={onRemove} {...lineActions} />
              </Card>
            )}
            {otherSingles.length + otherBulks.length > 0 && (
              <Card as="section" size="lg" aria-labelledby="also-waiting" className="flex flex-col gap-4 p-5">
                <div>
                  <h2 id="also-waiting" className="font-semibold text-ink">
                    {t("money.alsoWaiting")}
                  </h2>
                  <p className="text-sm text-muted">{t("money.alsoWaitingHint")}</p>
                </div>
                {otherBulks.map((order) => (
                  <BulkOrderCard
                    key={order.id}
                    order={order}
                    actions={lineActions}
                    onAllBack={() => onBackToCart(order.lines)}
                    onAdd={() => choice.add("bulk", order.id)}
                  />
                ))}
                {otherSingles.length > 0 && (
                  <PendingLines
                    lines={otherSingles}
                    onAdd={(line) => choice.add("orders", line.order.id)}
                    {...lineActions}
                  />
                )}
              </Card>
            )}
          </div>
          <PaymentSummary
            lines={chosenLines}
            orderIds={chosenSingles.map((line) => line.order.id)}
            bulkOrderIds={chosenBulks.map((order) => order.id)}
            onAdded={(id) => choice.add("orders", id)}
          />
        </div>
      )}
    </div>
  );
}

export default CheckoutPage;

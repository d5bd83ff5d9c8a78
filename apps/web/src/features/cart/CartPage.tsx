import { useId, useState } from "react";
import { Link, Navigate } from "react-router";
import { ShoppingBag } from "lucide-react";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { changeGuestAmount, removeFromGuestList } from "@/api/guest-lists";
import { totalAtAmount, useListLines, type ListLine } from "@/api/list-lines";
import { useBulkOrders, useChangeCartAmount, useOrders, useRemoveListLine } from "@/api/orders";
import { useSession } from "@/api/session";
import { usePageTitle } from "@/components/page-title";
import { useBuyFlow } from "@/components/use-buy-flow";
import { Button, buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { Skeleton } from "@/components/ui/Skeleton";
import { showToast } from "@/components/ui/toast";
import { focusRingClass } from "@/components/ui/focus-ring";
import { CartLineItem } from "./CartLineItem";
import { cartSummary } from "./cart-summary";
import { ListIllustration } from "./ListIllustration";
import { LoadError } from "@/components/LoadError";
import { MoneySummary } from "@/components/MoneySummary";
import { textLinkClass } from "@/components/ui/text-link";

const PENDING = ["pending"] as const;

/**
 * /cart (docs/product-rules.md §1 Cart, §8): the lines with their amounts and prices, the summary, where to ship and Buy
 * All. A signed-in shopper's cart is on the server and its changes show at once, rolled back with the
 * server's message if it refuses; a guest's is in the browser. Admins have no cart: they go home.
 */
export function CartPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("overview.cart") }));
  const { isAdmin } = useSession();
  const { lines: listed, isPending, isError, refetch } = useListLines("inCart");
  // Here, not in the summary: the summary goes with the emptied cart, and the redirect must outlive it.
  const buyFlow = useBuyFlow();
  // Buy All: the lines stay on screen, busy, until the shopper is on checkout; the cart read again after the
  // purchase is empty, and must never flash "This cart is empty" before moving on.
  const [bought, setBought] = useState<ListLine[] | null>(null);
  const lines = buyFlow.busy && bought ? bought : listed;
  const onBuyAll = (orderIds: number[]) => {
    setBought(listed);
    buyFlow.buy({ cartOrderIds: orderIds });
  };
  const changeAmount = useChangeCartAmount();
  const remove = useRemoveListLine();
  const refused = (error: unknown) =>
    showToast(error instanceof ApiError ? error.message : t("toasts.listFailed"), "error");

  const onChangeAmount = (line: ListLine, delta: 1 | -1) => {
    if (line.orderId === null) {
      // The server caps a shopper's amount at the stock; a guest's cart says so itself.
      if (delta > 0 && line.amount >= line.stock) {
        showToast(t("cart.onlyLeft", { count: line.stock }), "error");
        return;
      }
      changeGuestAmount("inCart", line.productId, delta, line.variantId);
      return;
    }
    const total = totalAtAmount(line, line.amount + delta);
    changeAmount.mutate(
      { id: line.orderId, amount: delta, lineTotal: total === null ? undefined : total / 100 },
      { onError: refused },
    );
  };

  const onRemove = (line: ListLine) => {
    if (line.orderId === null) {
      removeFromGuestList("inCart", line.productId, line.variantId);
      showToast(t("cart.deleted"));
      return;
    }
    remove.mutate(line.orderId, { onSuccess: () => showToast(t("cart.deleted")), onError: refused });
  };

  if (isAdmin) return <Navigate to="/" replace />;

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t("cart.title")}</h1>
      {!buyFlow.busy && <WaitingInCheckout />}
      {isError ? (
        <LoadError onRetry={() => void refetch()} className="py-16" />
      ) : isPending ? (
        <div role="status" aria-busy="true" className="grid gap-6 lg:grid-cols-[1fr_22rem]">
          <span className="sr-only">{t("common.loading")}</span>
          <Skeleton className="h-72 w-full rounded-3xl" />
          <Skeleton className="h-64 w-full rounded-3xl" />
        </div>
      ) : lines.length === 0 ? (
        <Card size="lg" className="flex flex-col items-center gap-4 px-6 py-14 text-center">
          <ListIllustration kind="cart" label={t("cart.emptyPicture")} />
          <p className="text-xl font-semibold text-ink">{t("nav.cartEmpty")}</p>
          <Link to="/products?offset=1" className={buttonClass()}>
            {t("cart.keepShopping")}
          </Link>
        </Card>
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[1fr_22rem]">
          <Card as="section" size="lg" aria-label={t("cart.lines")} className="p-4 sm:p-6">
            <ul className="divide-y divide-line">
              {lines.map((line) => (
                <CartLineItem
                  key={line.orderId ?? line.productId}
                  line={line}
                  onChangeAmount={onChangeAmount}
                  onRemove={onRemove}
                  disabled={buyFlow.busy}
                />
              ))}
            </ul>
          </Card>
          <CartSummaryPanel lines={lines} buyFlow={buyFlow} onBuyAll={onBuyAll} />
        </div>
      )}
      {buyFlow.dialogs}
    </div>
  );
}

/**
 * A shopper who left checkout finds their pending lines here by name: checkout is where they are paid or
 * taken back to the cart.
 */
function WaitingInCheckout() {
  const { t } = useTranslation();
  const { user, isAdmin } = useSession();
  const enabled = Boolean(user) && !isAdmin;
  const single = useOrders(PENDING, { enabled });
  const bulk = useBulkOrders(PENDING, { enabled });
  const count =
    (single.data ?? []).reduce((sum, product) => sum + product.orders.length, 0) +
    (bulk.data ?? []).reduce(
      (sum, order) => sum + order.products.reduce((lines, product) => lines + product.orders.length, 0),
      0,
    );
  if (!enabled || count === 0) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-2xl border border-line bg-card px-4 py-3 text-sm text-ink">
      <span>{t("money.waitingInCheckout", { count })}</span>
      <Link to="/purchase" className={`font-semibold text-accent-strong ${textLinkClass}`}>
        {t("money.goToCheckout")}
      </Link>
    </p>
  );
}

/** The summary (products, shipping added up, total: ADR 0015), the shipment section and Buy All. */
function CartSummaryPanel({
  lines,
  buyFlow: { busy, blocked },
  onBuyAll,
}: {
  lines: ListLine[];
  buyFlow: ReturnType<typeof useBuyFlow>;
  onBuyAll: (orderIds: number[]) => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const { productsCents, shippingCents, totalCents } = cartSummary(lines);
  const orderIds = lines.flatMap((line) => (line.orderId === null ? [] : [line.orderId]));
  return (
    <Card as="aside" size="lg" raised aria-labelledby={headingId} className="flex flex-col gap-5 p-6">
      <h2 id={headingId} className="text-lg font-semibold text-ink">
        {t("cart.summary")}
      </h2>
      {/* Read out again when a plus, minus or x changes them. */}
      <div role="status">
        <MoneySummary
          productsCents={productsCents}
          shippingCents={shippingCents}
          totalCents={totalCents}
          testIdPrefix="cart"
        />
      </div>
      <ShipmentSection />
      <Button
        size="xl"
        disabled={blocked || busy}
        aria-busy={busy}
        // A guest's lines aren't on the server: the flow asks them to log in first.
        onClick={() => onBuyAll(orderIds)}
        className="w-full"
      >
        <ShoppingBag size={18} aria-hidden />
        {busy ? t("money.goingToCheckout") : t("cart.buyAll")}
      </Button>
    </Card>
  );
}

/**
 * Where the cart goes (docs/product-rules.md §1): a choice of the shopper's saved addresses; 'Register address' when they
 * have none; 'Login to add an address' for a guest.
 */
function ShipmentSection() {
  const { t } = useTranslation();
  const selectId = useId();
  const { user } = useSession();
  const addresses = user?.directions ?? [];
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const link = `self-start rounded text-sm font-semibold text-accent-strong hover:underline ${focusRingClass}`;
  return (
    <section className="flex flex-col gap-2 border-t border-line pt-5">
      <h3 className="text-sm font-semibold text-ink">{t("cart.shipment")}</h3>
      {!user ? (
        <Link to="/login" className={link}>
          {t("cart.loginForAddress")}
        </Link>
      ) : addresses.length === 0 ? (
        <Link to="/user" className={link}>
          {t("modals.registerAddress")}
        </Link>
      ) : (
        <>
          <label htmlFor={selectId} className="text-xs text-muted">
            {t("cart.shipTo")}
          </label>
          <select
            id={selectId}
            value={chosen ?? addresses[0]!.id}
            onChange={(event) => setChosen(Number(event.target.value))}
            className={`h-11 rounded-xl border border-line bg-card px-3 text-sm text-ink ${focusRingClass}`}
          >
            {addresses.map((address) => (
              <option key={address.id} value={address.id}>
                {t("cart.addressOption", {
                  city: address.city,
                  street: address.street,
                  number: address.streetNumber,
                })}
              </option>
            ))}
          </select>
        </>
      )}
    </section>
  );
}

export default CartPage;

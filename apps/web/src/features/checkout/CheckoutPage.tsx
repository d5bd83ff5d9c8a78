import { useId, useState } from "react";
import { Link, Navigate, useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { CreditCard, Lock, Plus, TriangleAlert, Undo2, X } from "lucide-react";
import { useTranslation, type Translate } from "@/i18n";
import {
  checkoutItems,
  checkoutTotals,
  providerItems,
  type CheckoutItem,
  type PendingLine,
} from "@voltio/domain/checkout";
import type { OrderedProduct, ProductOrder } from "@voltio/domain/orders";
import { formatDollars, toCents, toDollars } from "@voltio/domain/money";
import { ApiError } from "@/api/client";
import {
  addPendingOrder,
  moveOrder,
  refreshOrders,
  removeOrder,
  useBulkOrders,
  useOrders,
  useRemoveListLine,
} from "@/api/orders";
import { startPayment } from "./api";
import { rememberChoice } from "./choice";
import { useSession } from "@/api/session";
import { useStoreInfo } from "@/api/store";
import { usePageTitle } from "@/components/page-title";
import { Button, buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { IconButton } from "@/components/ui/IconButton";
import { showToast } from "@/components/ui/toast";
import { textLinkClass } from "@/components/ui/text-link";
import { focusRingClass } from "@/components/ui/focus-ring";
import { MoneySummary } from "@/components/MoneySummary";
import { shortageFix, shortageOf, type Shortage } from "./shortage";
import { Thumbnail } from "@/components/ui/Thumbnail";

const PENDING = ["pending"] as const;

/** A pending line on the screen: the product, its order line, and the snapshot the charge is built from. */
interface Line {
  product: OrderedProduct;
  order: ProductOrder;
  pending: PendingLine;
  /** Gathered in a bulk order: the shopper can neither remove nor change it, only take it back to the cart. */
  bulk: boolean;
}

const lineOf = (product: OrderedProduct, order: ProductOrder, bulk = false): Line => ({
  product,
  order,
  bulk,
  pending: {
    title: product.title,
    amount: order.amount,
    unitPriceCents: toCents(order.unitPrice),
    lineTotalCents: toCents(order.lineTotal),
    shippingCents: toCents(order.shipping),
    salePercentage: order.salePercentage,
    discountedUnits: order.discountedUnits,
  },
});

/** SPEC.md §7: the page's address minus its last 9 characters ('/purchase'), where the shopper comes back. */
const baseUrl = () => window.location.href.split(/[?#]/)[0]!.slice(0, -"/purchase".length);

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
 * /purchase (SPEC.md §2 Checkout, §4 Checkout removal and Payment; issues 10, 23): exactly what this payment
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
  const client = useQueryClient();
  const choice = useChoice();
  const [moving, setMoving] = useState(false);

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
  const failed = (error: unknown, fallback: string) =>
    showToast(error instanceof ApiError ? error.message : fallback, "error");

  const onRemove = ({ order }: Line) =>
    remove.mutate(order.id, {
      onSuccess: () => showToast(t("checkout.removed")),
      onError: (error) => failed(error, t("toasts.listFailed")),
    });
  /** Back to the cart, one line or a bulk order's lines: the server merges them into the cart's lines. */
  const onBackToCart = async (lines: readonly Line[]) => {
    setMoving(true);
    try {
      for (const line of lines) await moveOrder(line.order.id, "inCart");
      showToast(t("money.movedToCart"));
    } catch (error) {
      failed(error, t("money.moveFailed"));
    } finally {
      await refreshOrders(client);
      setMoving(false);
    }
  };
  const lineActions = { onBackToCart: (line: Line) => void onBackToCart([line]), busy: moving };

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
                onAllBack={() => void onBackToCart(order.lines)}
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
                    onAllBack={() => void onBackToCart(order.lines)}
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

interface LineActions {
  onBackToCart: (line: Line) => void;
  /** A line is on its way back to the cart: no other change meanwhile. */
  busy: boolean;
}

/** A bulk order: its lines go back to the cart together or one by one; one waiting apart can be added. */
function BulkOrderCard({
  order,
  actions,
  onAllBack,
  onAdd,
}: {
  order: { id: number; lines: Line[] };
  actions: LineActions;
  onAllBack: () => void;
  onAdd?: () => void;
}) {
  const { t } = useTranslation();
  const headingId = `bulk-${order.id}`;
  return (
    <Card as="section" size="lg" aria-labelledby={headingId} className="flex flex-col gap-4 p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-semibold text-ink">
          {t("checkout.bulkOrder", { count: order.lines.length })}
        </h2>
        <div className="flex flex-wrap gap-2">
          {onAdd && (
            <Button size="sm" variant="secondary" onClick={onAdd} disabled={actions.busy}>
              <Plus size={16} aria-hidden />
              {t("money.addOrderToPurchase")}
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={onAllBack} disabled={actions.busy}>
            <Undo2 size={16} aria-hidden />
            {t("money.orderBackToCart")}
          </Button>
        </div>
      </div>
      <PendingLines lines={order.lines} {...actions} />
    </Card>
  );
}

interface PendingLinesProps extends LineActions {
  lines: Line[];
  /** Only lines bought on their own can be removed. */
  onRemove?: (line: Line) => void;
  /** A line waiting apart: added to this purchase. */
  onAdd?: (line: Line) => void;
}

function PendingLines({ lines, onRemove, onAdd, onBackToCart, busy }: PendingLinesProps) {
  const { t } = useTranslation();
  return (
    <ul className="divide-y divide-line">
      {lines.map((line) => (
        <li key={line.order.id} className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
          <Thumbnail src={line.product.images[0]?.url} width={64} height={64} lazy className="h-16 w-16" />
          <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
            <Link to={`/product/${line.product.id}`} className={`line-clamp-2 text-ink ${textLinkClass}`}>
              {line.product.title}
            </Link>
            <LineItems line={line.pending} />
            <div className="flex flex-wrap gap-x-3 gap-y-1">
              {onAdd && (
                <button
                  type="button"
                  onClick={() => onAdd(line)}
                  disabled={busy}
                  aria-label={t("money.addToPurchaseNamed", { title: line.product.title })}
                  className={`self-start text-sm font-semibold text-accent-strong disabled:opacity-60 ${textLinkClass}`}
                >
                  {t("money.addToPurchase")}
                </button>
              )}
              <button
                type="button"
                onClick={() => onBackToCart(line)}
                disabled={busy}
                aria-label={t("money.backToCartNamed", { title: line.product.title })}
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
              label={t("checkout.remove", { title: line.product.title })}
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

/**
 * How a line is charged: its units and shipping, and when an 'on Nth unit' sale (or a total that doesn't
 * divide evenly) splits it, each item — the discounted units on a line of their own with shipping 0.
 */
function LineItems({ line }: { line: PendingLine }) {
  const { t } = useTranslation();
  const items = checkoutItems(line);
  if (items.length === 1)
    return (
      <span className="flex flex-wrap gap-x-2 text-muted">
        <span className="whitespace-nowrap">{t("purchases.amount", { count: line.amount })}</span>
        <span className="whitespace-nowrap">{shippingText(t, line.shippingCents)}</span>
      </span>
    );
  return (
    <ul className="flex flex-col gap-0.5">
      {items.map((item, index) => (
        <ItemRow key={index} item={item} />
      ))}
    </ul>
  );
}

const shippingText = (t: Translate, cents: number) =>
  cents === 0
    ? t("checkout.itemFreeShipping")
    : t("checkout.itemShipping", { cost: formatDollars(toDollars(cents)) });

/** One charged item of a line: '2 × $29.99 · Shipping $5.00', or the discounted units with no shipping. */
function ItemRow({ item }: { item: CheckoutItem }) {
  const { t } = useTranslation();
  return (
    <li className="flex flex-wrap items-center gap-x-2 text-muted tabular-nums">
      <span className="whitespace-nowrap">
        {t("checkout.item", { count: item.amount, price: formatDollars(toDollars(item.unitPriceCents)) })}
      </span>
      {item.discountPercentage !== null && (
        <span className="whitespace-nowrap rounded bg-sale/10 px-1.5 text-xs font-semibold text-sale">
          {t("checkout.itemDiscount", { percentage: item.discountPercentage })}
        </span>
      )}
      <span className="whitespace-nowrap">{shippingText(t, item.shippingCents)}</span>
    </li>
  );
}

/**
 * The address, the three sums of SPEC.md §2 Checkout and the pay button: POST /{provider}/pay, then off to
 * the provider's page (the sandbox's card page by default). When other shoppers' checkouts hold the units,
 * it says which product and how many are left, and offers to cut the purchase down to that.
 */
function PaymentSummary({
  lines,
  orderIds,
  bulkOrderIds,
  onAdded,
}: {
  lines: Line[];
  /** What this Pay covers (ADR 0015): sent, so nothing else pending is charged. */
  orderIds: number[];
  bulkOrderIds: number[];
  /** The line that replaced a cut one joins this purchase. */
  onAdded: (orderId: number) => void;
}) {
  const { t } = useTranslation();
  const selectId = useId();
  const { user } = useSession();
  const store = useStoreInfo();
  const client = useQueryClient();
  const addresses = user?.directions ?? [];
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shortage, setShortage] = useState<Shortage | null>(null);
  const [fixing, setFixing] = useState(false);
  const pending = lines.map((line) => line.pending);
  const totals = checkoutTotals(pending);
  const directionId = chosen ?? addresses[0]?.id;
  const provider = store.data?.paymentProvider;

  const pay = async () => {
    if (!provider) return;
    setPaying(true);
    setError(null);
    setShortage(null);
    try {
      const items = providerItems(pending).map((item) => ({
        title: item.title,
        amount: item.amount,
        price: toDollars(item.unitPriceCents),
      }));
      const { init_point } = await startPayment(provider, {
        items,
        baseURL: baseUrl(),
        directionId,
        orderIds,
        bulkOrderIds,
      });
      rememberChoice(window.location.search);
      window.location.assign(init_point);
    } catch (caught) {
      setPaying(false);
      const short = shortageOf(caught);
      if (short) setShortage(short);
      else setError(caught instanceof ApiError ? caught.message : t("checkout.payFailed"));
      // What is pending may have changed elsewhere (another tab paid or took a line back).
      if (!short) await refreshOrders(client);
    }
  };

  const fix = async (found: Shortage) => {
    const { single, action, room, title } = shortageFix(lines, found);
    const name = title ?? t("checkout.someProduct");
    setFixing(true);
    setError(null);
    try {
      for (const line of single) await removeOrder(line.order.id);
      if (action === "cut") onAdded((await addPendingOrder(found.productId, new Date().toString(), room)).id);
      setShortage(null);
      showToast(
        action === "cut"
          ? t("checkout.amountChanged", { count: room, title: name })
          : t("checkout.shortRemoved", { title: name }),
      );
    } catch (caught) {
      setShortage(null);
      setError(caught instanceof ApiError ? caught.message : t("checkout.fixFailed"));
    } finally {
      await refreshOrders(client);
      setFixing(false);
    }
  };

  return (
    <Card as="aside" size="lg" aria-labelledby="payment-summary" className="flex flex-col gap-4 p-5">
      <h2 id="payment-summary" className="font-semibold text-ink">
        {t("checkout.summary")}
      </h2>
      {addresses.length === 0 ? (
        <Link to="/user" className={`self-start text-sm font-semibold text-accent-strong ${textLinkClass}`}>
          {t("modals.registerAddress")}
        </Link>
      ) : (
        <div className="flex flex-col gap-1">
          <label htmlFor={selectId} className="text-xs text-muted">
            {t("cart.shipTo")}
          </label>
          <select
            id={selectId}
            value={directionId}
            onChange={(event) => setChosen(Number(event.target.value))}
            className={`h-11 rounded-xl border border-line bg-card px-3 text-sm text-ink ${focusRingClass}`}
          >
            {addresses.map((address) => (
              <option key={address.id} value={address.id}>
                {address.city}
              </option>
            ))}
          </select>
        </div>
      )}
      <MoneySummary {...totals} testIdPrefix="checkout" />
      {error && (
        <p role="alert" className="text-sm font-semibold text-sale">
          {error}
        </p>
      )}
      {shortage && (
        <ShortageAlert lines={lines} shortage={shortage} busy={fixing} onFix={() => void fix(shortage)} />
      )}
      <Button
        size="xl"
        onClick={pay}
        disabled={paying || fixing || !provider || directionId === undefined || lines.length === 0}
        aria-busy={paying}
      >
        <Lock size={18} aria-hidden />
        {t("checkout.pay", { total: formatDollars(toDollars(totals.totalCents)) })}
      </Button>
      {provider && <p className="text-center text-xs text-muted">{t(`checkout.provider.${provider}`)}</p>}
    </Card>
  );
}

/** Which product is short and how many are left, with the way to fix the purchase when there is one. */
function ShortageAlert({
  lines,
  shortage,
  busy,
  onFix,
}: {
  lines: readonly Line[];
  shortage: Shortage;
  busy: boolean;
  onFix: () => void;
}) {
  const { t } = useTranslation();
  const { title, action, room } = shortageFix(lines, shortage);
  const name = title ?? t("checkout.someProduct");
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-xl border border-sale p-3 text-sm text-ink">
      <p className="flex items-start gap-2">
        <TriangleAlert size={16} aria-hidden className="mt-0.5 shrink-0 text-sale" />
        <span>
          {shortage.stock > 0
            ? t("checkout.onlyLeft", { count: shortage.stock, title: name })
            : t("checkout.outOfStock", { title: name })}
        </span>
      </p>
      {action === "none" ? (
        <p className="text-muted">{t("checkout.inBulk")}</p>
      ) : (
        <Button variant="secondary" size="md" onClick={onFix} disabled={busy} className="self-start">
          {action === "cut"
            ? t("checkout.buyInstead", { count: room })
            : t("checkout.removeShort", { title: name })}
        </Button>
      )}
    </div>
  );
}

export default CheckoutPage;

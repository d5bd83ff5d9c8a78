import { useId, useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { ChevronDown, Download, TriangleAlert } from "lucide-react";
import { useTranslation, type Translate } from "@/i18n";
import { ADMIN_ORDER_STATUSES, type AdminOrder, type AdminOrderStatus } from "@voltio/domain/admin-orders";
import { PURCHASE_STATUSES, isPurchaseStatus } from "@voltio/domain/order-status";
import { formatDollars } from "@voltio/domain/money";
import { ApiError } from "@/api/client";
import { LoadError } from "@/components/LoadError";
import { usePageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import { capitalised, chartDate } from "../format";
import {
  CheckboxFilter,
  FilterActions,
  UserIdBox,
  filterFieldClass,
  positiveId,
  useUserIdBox,
} from "../Filters";
import { PageBar } from "../PageBar";
import { ProblemAlert } from "../ProblemAlert";
import {
  afterStatusChange,
  changeOrderStatus,
  downloadOrdersCsv,
  useAdminOrders,
  type OrderFilters,
} from "./api";

/** The filters and the page as the URL holds them; anything unknown there is left out, not sent. */
function filtersOf(params: URLSearchParams): OrderFilters & { page: number } {
  const status = params.get("status") ?? "";
  return {
    userId: positiveId(params.get("userId")),
    status: isPurchaseStatus(status) ? status : undefined,
    flagged: params.get("flagged") === "true" ? true : undefined,
    page: positiveId(params.get("page")) ?? 1,
  };
}

const keyOf = (order: Pick<AdminOrder, "id" | "kind">) => `${order.kind}-${order.id}`;

/** 'Order #12' or 'Bulk order #3': single and bulk orders have ids of their own. */
const nameOf = (t: Translate, order: Pick<AdminOrder, "id" | "kind">) =>
  t(order.kind === "bulk" ? "admin.orders.bulkOf" : "admin.orders.orderOf", { id: order.id });

/** What a refused call said (a 409: not enough stock to take back a cancellation, …), else a generic failure. */
const reasonOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : fallback;

/**
 * /admin/orders 'All Orders' (SPEC.md §2 Admin orders, §4 Admin order status; issue 13 point 1): every
 * purchase, single or bulk, filtered by user, status and flag (all in the URL), paged by the server. A row
 * opens to its products, address and payment reference; its selector moves the order to any admin status
 * (no order enforced), and the shopper hears of it from the server. 'Export CSV' saves the filtered list.
 */
export function OrdersPage() {
  const { t, language } = useTranslation();
  usePageTitle(t("titles.page", { page: t("admin.orders.title") }));
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const orders = useAdminOrders(filters);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  // The status being sent, shown in its selector until the list is read again.
  const [sending, setSending] = useState<{ key: string; status: AdminOrderStatus } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const headingId = useId();

  const go = (next: Partial<OrderFilters & { page: number }>) => {
    const merged = { ...filters, page: 1, ...next };
    const search = new URLSearchParams();
    if (merged.userId) search.set("userId", String(merged.userId));
    if (merged.status) search.set("status", merged.status);
    if (merged.flagged) search.set("flagged", "true");
    if (merged.page > 1) search.set("page", String(merged.page));
    setParams(search);
  };

  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  const change = async (order: AdminOrder, status: AdminOrderStatus) => {
    const key = keyOf(order);
    setSending({ key, status });
    setProblem(null);
    try {
      await changeOrderStatus(order, status);
      showToast(
        t("admin.orders.changed", {
          order: nameOf(t, order),
          status: t(`admin.orders.statuses.${status}`),
        }),
      );
    } catch (error) {
      const message = t("admin.orders.changeFailed", {
        order: nameOf(t, order),
        reason: reasonOf(error, t("admin.orders.tryAgain")),
      });
      setProblem(message);
      showToast(message, "error");
    } finally {
      await afterStatusChange(client);
      setSending(null);
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const exported = { userId: filters.userId, status: filters.status, flagged: filters.flagged };
      await downloadOrdersCsv(exported, `orders-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (error) {
      showToast(reasonOf(error, t("admin.orders.exportFailed")), "error");
    } finally {
      setExporting(false);
    }
  };

  const filtered = filters.userId !== undefined || filters.status !== undefined || filters.flagged;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id={headingId} className="text-2xl font-bold tracking-tight text-ink">
          {t("admin.orders.title")}
        </h1>
        <Button variant="secondary" size="md" onClick={() => void exportCsv()} disabled={exporting}>
          <Download size={16} aria-hidden />
          {exporting ? t("admin.orders.exporting") : t("admin.orders.export")}
        </Button>
      </div>

      <OrderFiltersForm filters={filters} onApply={go} filtered={Boolean(filtered)} />

      {problem && <ProblemAlert onDismiss={() => setProblem(null)}>{problem}</ProblemAlert>}

      <Card as="section" size="lg" aria-labelledby={headingId} className="overflow-hidden">
        {orders.isError ? (
          <LoadError onRetry={() => void orders.refetch()} className="px-6 py-12" />
        ) : orders.isPending ? (
          <p role="status" className="p-5 text-muted">
            {t("common.loading")}
          </p>
        ) : orders.data.orders.length === 0 ? (
          <p className="p-5 text-muted">{t("admin.orders.none")}</p>
        ) : (
          // Its buttons and selectors bring a scrolled-away column into view for the keyboard.
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm sm:min-w-[34rem]">
              <thead className="border-b border-line text-xs text-muted uppercase">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    {t("admin.orders.date")}
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    {t("admin.orders.status")}
                  </th>
                  <th scope="col" className="hidden px-4 py-3 text-right font-semibold sm:table-cell">
                    {t("admin.orders.price")}
                  </th>
                  <th scope="col" className="hidden px-4 py-3 text-right font-semibold sm:table-cell">
                    {t("admin.orders.user")}
                  </th>
                </tr>
              </thead>
              {orders.data.orders.map((order) => {
                const key = keyOf(order);
                return (
                  <OrderRows
                    key={key}
                    order={order}
                    expanded={open.has(key)}
                    onToggle={() => toggle(key)}
                    status={sending?.key === key ? sending.status : order.status}
                    busy={sending?.key === key}
                    onStatus={(status) => void change(order, status)}
                    date={chartDate(order.serverPurchaseDate ?? order.updatedAt, language)}
                  />
                );
              })}
            </table>
          </div>
        )}
      </Card>

      <PageBar
        label={t("admin.orders.pages")}
        page={filters.page}
        totalPages={orders.data?.totalPages ?? 1}
        onPage={(page) => go({ page })}
      />
    </div>
  );
}

/** User id (sent with the form), status and 'flagged only' (applied as they change). */
function OrderFiltersForm({
  filters,
  onApply,
  filtered,
}: {
  filters: OrderFilters;
  onApply: (next: Partial<OrderFilters>) => void;
  filtered: boolean;
}) {
  const { t } = useTranslation();
  const statusId = useId();
  const userId = useUserIdBox(filters.userId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ userId: userId.typed() });
  };

  return (
    <Card as="section" aria-label={t("admin.orders.filters")} className="p-4">
      <form
        onSubmit={submit}
        className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,10rem)_minmax(0,14rem)_1fr_auto]"
      >
        <UserIdBox label={t("admin.orders.userId")} box={userId} />
        <div className="flex flex-col gap-1">
          <label htmlFor={statusId} className="text-xs font-medium text-muted">
            {t("admin.orders.status")}
          </label>
          <select
            id={statusId}
            value={filters.status ?? ""}
            onChange={(event) => {
              const status = event.target.value;
              onApply({ userId: userId.typed(), status: isPurchaseStatus(status) ? status : undefined });
            }}
            className={filterFieldClass}
          >
            <option value="">{t("admin.orders.allStatuses")}</option>
            {PURCHASE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`admin.orders.statuses.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <CheckboxFilter
          label={t("admin.orders.flaggedOnly")}
          hint={t("admin.orders.flaggedHint")}
          checked={Boolean(filters.flagged)}
          onChange={(checked) => onApply({ userId: userId.typed(), flagged: checked || undefined })}
        />
        <FilterActions
          apply={t("admin.orders.apply")}
          clear={t("admin.orders.clear")}
          filtered={filtered}
          onClear={() => onApply({ userId: undefined, status: undefined, flagged: undefined })}
        />
      </form>
    </Card>
  );
}

const FLAG_KEYS = {
  refund_needed: "refundNeeded",
  amount_mismatch: "amountMismatch",
  refunded: "refunded",
  disputed: "disputed",
} as const;

/** One order: its summary row and, under it, the details it opens to. */
function OrderRows({
  order,
  expanded,
  onToggle,
  status,
  busy,
  onStatus,
  date,
}: {
  order: AdminOrder;
  expanded: boolean;
  onToggle: () => void;
  status: AdminOrder["status"];
  busy: boolean;
  onStatus: (status: AdminOrderStatus) => void;
  date: string;
}) {
  const { t } = useTranslation();
  const detailsId = useId();
  const name = nameOf(t, order);
  const offered: readonly string[] = ADMIN_ORDER_STATUSES;
  const cell = "px-3 py-3 align-top sm:px-4";
  // Phones show price and user under the date: the two columns would push the selector off screen.
  const wide = "hidden sm:table-cell";
  return (
    <tbody className="border-b border-line last:border-b-0">
      <tr
        // The whole row opens, as SPEC.md says; the date's button is the keyboard's and screen reader's way.
        onClick={(event) => {
          if (!(event.target as HTMLElement).closest("button, select, a")) onToggle();
        }}
        className={`cursor-pointer transition ${
          order.flag
            ? "bg-sale/5 shadow-[inset_4px_0_0_var(--color-sale)] hover:bg-sale/10"
            : "hover:bg-surface"
        }`}
      >
        <td className={cell}>
          <button
            type="button"
            onClick={onToggle}
            aria-expanded={expanded}
            aria-controls={detailsId}
            className="-m-1 flex items-start gap-2 rounded-lg p-1 text-left focus-visible:outline-2 focus-visible:outline-accent"
          >
            <ChevronDown
              size={18}
              aria-hidden
              className={`mt-0.5 shrink-0 text-muted transition-transform motion-reduce:transition-none ${expanded ? "rotate-180" : ""}`}
            />
            <span className="flex flex-col">
              <span className="font-medium text-ink sm:whitespace-nowrap">{date}</span>
              <span className="text-xs text-muted">
                {name}
                {order.number && (
                  <>
                    {" · "}
                    <span className="font-mono">{order.number}</span>
                  </>
                )}
              </span>
            </span>
          </button>
          <span className="mt-1 ml-7 block text-xs text-muted tabular-nums sm:hidden">
            US$ {formatDollars(order.price)} · {t("admin.orders.userShort", { id: order.userId })}
          </span>
          {order.flag && (
            <span className="mt-2 ml-7 inline-flex items-center gap-1 rounded-full bg-sale px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-on-sale">
              <TriangleAlert size={12} aria-hidden />
              {t(`admin.orders.flags.${FLAG_KEYS[order.flag]}`)}
            </span>
          )}
        </td>
        <td className={cell}>
          <select
            aria-label={t("admin.orders.statusOf", { order: name })}
            value={status}
            disabled={busy}
            onChange={(event) => onStatus(event.target.value as AdminOrderStatus)}
            className="h-9 w-full max-w-40 rounded-lg border border-line bg-card px-2 text-sm text-ink focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:opacity-60"
          >
            {!offered.includes(status) && (
              <option value={status} disabled>
                {t(`admin.orders.statuses.${status}`)}
              </option>
            )}
            {ADMIN_ORDER_STATUSES.map((choice) => (
              <option key={choice} value={choice}>
                {t(`admin.orders.statuses.${choice}`)}
              </option>
            ))}
          </select>
        </td>
        <td className={`${cell} ${wide} text-right font-medium whitespace-nowrap text-ink tabular-nums`}>
          US$ {formatDollars(order.price)}
        </td>
        <td className={`${cell} ${wide} text-right text-ink tabular-nums`}>{order.userId}</td>
      </tr>
      <tr id={detailsId} hidden={!expanded} className={order.flag ? "bg-sale/5" : "bg-surface"}>
        <td colSpan={4} className="px-3 pt-1 pb-4 sm:px-4">
          <OrderDetails order={order} />
        </td>
      </tr>
    </tbody>
  );
}

function OrderDetails({ order }: { order: AdminOrder }) {
  const { t } = useTranslation();
  const address = order.shippingAddress;
  const heading = "mb-1.5 text-xs font-semibold tracking-wide text-muted uppercase";
  return (
    <div className="grid gap-4 text-sm sm:pl-7 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr]">
      <section>
        <h3 className={heading}>{t("admin.orders.products")}</h3>
        <ul className="flex flex-col gap-1">
          {order.products.map((line) => (
            <li key={line.orderId} className="flex justify-between gap-3">
              <span className="min-w-0 text-ink">
                {line.title} <span className="text-muted">× {line.amount}</span>
              </span>
              <span className="whitespace-nowrap text-ink tabular-nums">US$ {formatDollars(line.price)}</span>
            </li>
          ))}
          <li className="flex justify-between gap-3 border-t border-line pt-1 text-muted">
            <span>{t("admin.orders.shipping")}</span>
            <span className="whitespace-nowrap tabular-nums">US$ {formatDollars(order.shippingCost)}</span>
          </li>
        </ul>
      </section>
      <section>
        <h3 className={heading}>{t("admin.orders.shipTo")}</h3>
        {address ? (
          <address className="text-ink not-italic">
            {address.street} {address.streetNumber}
            {address.floor ? `, ${t("admin.orders.floor", { floor: address.floor })}` : ""}
            {address.unit ? `, ${t("admin.orders.unit", { unit: address.unit })}` : ""}
            <br />
            {address.postalCode} {address.city}
          </address>
        ) : (
          <p className="text-muted">{t("admin.orders.noAddress")}</p>
        )}
        <p className="mt-2 text-muted">
          {capitalised(`${order.user.firstName} ${order.user.lastName}`)}
          <br />
          <span className="break-all">{order.user.email}</span>
        </p>
      </section>
      <section>
        <h3 className={heading}>{t("admin.orders.payment")}</h3>
        {order.number && (
          <p className="text-ink">
            <span className="text-muted">{t("admin.orders.number")} </span>
            <span className="font-mono">{order.number}</span>
          </p>
        )}
        <p className="text-ink">
          <span className="text-muted">{t("admin.orders.reference")} </span>
          {order.purchaseId ? (
            <span className="font-mono break-all">{order.purchaseId}</span>
          ) : (
            t("admin.orders.noReference")
          )}
        </p>
      </section>
    </div>
  );
}

export default OrdersPage;

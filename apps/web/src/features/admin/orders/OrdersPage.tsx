import { useId, useState } from "react";
import { useSearchParams } from "react-router";
import { Download } from "lucide-react";
import { useTranslation } from "@/i18n";
import { ADMIN_ORDER_SEARCH_MAX, type AdminOrder, type AdminOrderStatus } from "@voltio/domain/admin-orders";
import { isPurchaseStatus } from "@voltio/domain/order-status";
import { ApiError } from "@/api/client";
import { LoadError } from "@/components/LoadError";
import { usePageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import { positiveId } from "../Filters";
import { PageBar } from "../PageBar";
import { ProblemAlert } from "../ProblemAlert";
import {
  useAdminOrders,
  useChangeOrderStatus,
  useDownloadOrdersCsv,
  type OrderFilters,
  type Tracking,
} from "./api";
import { StatusChangeDialog } from "./StatusChangeDialog";
import { OrderFiltersForm } from "./OrderFiltersForm";
import { OrdersTable, type StatusBeingSent } from "./OrdersTable";
import { keyOf, nameOf } from "./order-names";

/** The filters and the page as the URL holds them; anything unknown there is left out, not sent. */
function filtersOf(params: URLSearchParams): OrderFilters & { page: number } {
  const status = params.get("status") ?? "";
  return {
    userId: positiveId(params.get("userId")),
    status: isPurchaseStatus(status) ? status : undefined,
    flagged: params.get("flagged") === "true" ? true : undefined,
    search: params.get("search")?.trim().slice(0, ADMIN_ORDER_SEARCH_MAX) || undefined,
    page: positiveId(params.get("page")) ?? 1,
  };
}

/** What a refused call said (a 409: not enough stock to take back a cancellation, …), else a generic failure. */
const reasonOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : fallback;

/**
 * /admin/orders 'All Orders' (docs/product-rules.md §1 Admin orders, §8 Admin order status): every
 * purchase, single or bulk, filtered by user, status and flag (all in the URL), paged by the server. A row
 * opens to its products, address and payment reference; its selector moves the order to any admin status
 * (no order enforced) once the admin confirms it — shipping asks for the parcel's tracking — and the shopper
 * hears of it from the server. The search box finds a purchase by number, buyer name or e-mail.
 * 'Export CSV' saves the filtered list.
 */
export function OrdersPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("admin.orders.title") }));
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const orders = useAdminOrders(filters);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [sending, setSending] = useState<StatusBeingSent>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const downloadCsv = useDownloadOrdersCsv();
  const [asked, setAsked] = useState<{ order: AdminOrder; status: AdminOrderStatus } | null>(null);
  const headingId = useId();

  const go = (next: Partial<OrderFilters & { page: number }>) => {
    const merged = { ...filters, page: 1, ...next };
    const search = new URLSearchParams();
    if (merged.userId) search.set("userId", String(merged.userId));
    if (merged.status) search.set("status", merged.status);
    if (merged.flagged) search.set("flagged", "true");
    if (merged.search) search.set("search", merged.search);
    if (merged.page > 1) search.set("page", String(merged.page));
    setParams(search);
  };

  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  const changeStatus = useChangeOrderStatus<{
    order: AdminOrder;
    status: AdminOrderStatus;
    tracking: Tracking;
  }>({
    onSuccess: (_reply, { order, status }) =>
      showToast(
        t("admin.orders.changed", {
          order: nameOf(t, order),
          status: t(`admin.orders.statuses.${status}`),
        }),
      ),
    onError: (error, { order }) => {
      const message = t("admin.orders.changeFailed", {
        order: nameOf(t, order),
        reason: reasonOf(error, t("admin.orders.tryAgain")),
      });
      setProblem(message);
      showToast(message, "error");
    },
    onSettled: () => setSending(null),
  });
  const change = (order: AdminOrder, status: AdminOrderStatus, tracking: Tracking) => {
    setSending({ key: keyOf(order), status });
    setProblem(null);
    changeStatus.mutate({ order, status, tracking });
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const exported = {
        userId: filters.userId,
        status: filters.status,
        flagged: filters.flagged,
        search: filters.search,
      };
      await downloadCsv.mutateAsync({
        filters: exported,
        fileName: `orders-${new Date().toISOString().slice(0, 10)}.csv`,
      });
    } catch (error) {
      showToast(reasonOf(error, t("admin.orders.exportFailed")), "error");
    } finally {
      setExporting(false);
    }
  };

  const filtered =
    filters.userId !== undefined || filters.status !== undefined || filters.flagged || filters.search;
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
          <OrdersTable
            orders={orders.data.orders}
            open={open}
            onToggle={toggle}
            sending={sending}
            onStatus={(order, status) => setAsked({ order, status })}
          />
        )}
      </Card>

      <StatusChangeDialog
        asked={asked && { order: nameOf(t, asked.order), status: asked.status }}
        onCancel={() => setAsked(null)}
        onAccept={(tracking) => {
          if (asked) change(asked.order, asked.status, tracking);
          setAsked(null);
        }}
      />

      <PageBar
        label={t("admin.orders.pages")}
        page={filters.page}
        totalPages={orders.data?.totalPages ?? 1}
        onPage={(page) => go({ page })}
      />
    </div>
  );
}

export default OrdersPage;

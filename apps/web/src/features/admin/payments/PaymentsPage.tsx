import { useId, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { RotateCcw, ShieldAlert, TriangleAlert } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { AdminPayment, RefundReply } from "@voltio/domain/payments";
import { formatDollars } from "@voltio/domain/money";
import { LoadError } from "@/components/LoadError";
import { usePageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import { textLinkClass } from "@/components/ui/text-link";
import { chartDate } from "../format";
import { CheckboxFilter, FilterActions, UserIdBox, positiveId, useUserIdBox } from "../Filters";
import { AdminTable, adminCellClass } from "../AdminTable";
import { PageBar } from "../PageBar";
import { useAdminPayments, type PaymentFilters } from "./api";
import { RefundDialog, referenceOf } from "./RefundDialog";
import { leftCents } from "./refund-form";

/** The filters and the page as the URL holds them; anything unknown there is left out, not sent. */
function filtersOf(params: URLSearchParams): PaymentFilters & { page: number } {
  return {
    userId: positiveId(params.get("userId")),
    attention: params.get("attention") === "true" ? true : undefined,
    page: positiveId(params.get("page")) ?? 1,
  };
}

const STATUS_KEYS = new Set(["approved", "pending", "rejected"]);

/** A refund asked for here and not yet taken by the provider: the refunded total it will reach. */
type Awaited = Record<number, number>;

/** How long the list is read again while a refund waits for the provider. */
const AWAIT_MS = 60_000;

/**
 * /admin/payments: every payment the providers reported, those needing attention first and
 * tinted — money that pays no order and wasn't given back, a dispute, a refund the provider didn't take —
 * filtered by user and 'needing attention only' (both in the URL), paged by the server. An approved payment
 * with money left has 'Refund': a dialog for the amount and the reason, then a confirmation.
 */
export function PaymentsPage() {
  const { t, language } = useTranslation();
  usePageTitle(t("titles.page", { page: t("admin.payments.title") }));
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const [awaited, setAwaited] = useState<Awaited>({});
  const [refunding, setRefunding] = useState<AdminPayment | null>(null);
  const headingId = useId();

  const waiting = (payment: AdminPayment) =>
    awaited[payment.id] !== undefined && Math.round(payment.refunded * 100) < awaited[payment.id]!;
  const payments = useAdminPayments(filters, (page) => page.payments.some(waiting));
  const rows = payments.data?.payments ?? [];

  const go = (next: Partial<PaymentFilters & { page: number }>) => {
    const merged = { ...filters, page: 1, ...next };
    const search = new URLSearchParams();
    if (merged.userId) search.set("userId", String(merged.userId));
    if (merged.attention) search.set("attention", "true");
    if (merged.page > 1) search.set("page", String(merged.page));
    setParams(search);
  };

  const refunded = (reply: RefundReply, payment: AdminPayment) => {
    setRefunding(null);
    showToast(
      t(reply.cancelled ? "admin.payments.dialog.doneCancelled" : "admin.payments.dialog.done", {
        amount: formatDollars(reply.refunding),
        reference: referenceOf(payment),
      }),
    );
    // The provider takes the refund a moment later: the list is read again until it shows, for a minute.
    const target = Math.round(payment.refunded * 100) + Math.round(reply.refunding * 100);
    setAwaited((current) => ({ ...current, [payment.id]: target }));
    setTimeout(
      () =>
        setAwaited((current) => {
          const { [payment.id]: _gone, ...rest } = current;
          return rest;
        }),
      AWAIT_MS,
    );
  };

  return (
    <div className="flex flex-col gap-5">
      <h1 id={headingId} className="text-2xl font-bold tracking-tight text-ink">
        {t("admin.payments.title")}
      </h1>

      <PaymentFiltersForm filters={filters} onApply={go} />

      <Card as="section" size="lg" aria-labelledby={headingId} className="overflow-hidden">
        {payments.isError ? (
          <LoadError onRetry={() => void payments.refetch()} className="px-6 py-12" />
        ) : payments.isPending ? (
          <p role="status" className="p-5 text-muted">
            {t("common.loading")}
          </p>
        ) : rows.length === 0 ? (
          <p className="p-5 text-muted">{t("admin.payments.none")}</p>
        ) : (
          <AdminTable
            tableClassName="min-w-[56rem]"
            columns={[
              { key: "date", label: t("admin.payments.date") },
              { key: "orders", label: t("admin.payments.orders") },
              { key: "user", label: t("admin.payments.user"), align: "right" },
              { key: "provider", label: t("admin.payments.provider") },
              { key: "status", label: t("admin.payments.status") },
              { key: "amount", label: t("admin.payments.amount"), align: "right" },
              { key: "refunded", label: t("admin.payments.refunded"), align: "right" },
              { key: "actions", label: t("admin.payments.actions"), hideLabel: true },
            ]}
          >
            <tbody>
              {rows.map((payment) => (
                <PaymentRow
                  key={payment.id}
                  payment={payment}
                  date={chartDate(payment.createdAt, language)}
                  waiting={waiting(payment) ? awaited[payment.id]! : null}
                  onRefund={() => setRefunding(payment)}
                />
              ))}
            </tbody>
          </AdminTable>
        )}
      </Card>

      <PageBar
        label={t("admin.payments.pages")}
        page={filters.page}
        totalPages={payments.data?.totalPages ?? 1}
        onPage={(page) => go({ page })}
      />

      <RefundDialog payment={refunding} onClose={() => setRefunding(null)} onRefunded={refunded} />
    </div>
  );
}

const cell = `${adminCellClass} align-top`;

function PaymentRow({
  payment,
  date,
  waiting,
  onRefund,
}: {
  payment: AdminPayment;
  date: string;
  /** The refunded total, in cents, a refund asked for here will reach; null when none is waiting. */
  waiting: number | null;
  onRefund: () => void;
}) {
  const { t } = useTranslation();
  const left = leftCents(payment);
  const refundable = payment.status === "approved" && left > 0;
  const reference = referenceOf(payment);
  return (
    <tr
      className={`border-b border-line last:border-b-0 ${
        payment.attention ? "bg-sale/5 shadow-[inset_4px_0_0_var(--color-sale)]" : ""
      }`}
    >
      <td className={cell}>
        <span className="block font-medium whitespace-nowrap text-ink">{date}</span>
        {payment.attention && (
          <span className="mt-1.5 inline-flex items-center gap-1 rounded-full bg-sale px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-on-sale">
            <TriangleAlert size={12} aria-hidden />
            {t("admin.payments.attention")}
          </span>
        )}
      </td>
      <td className={`${cell} font-mono whitespace-nowrap text-ink`}>
        {payment.orderNumbers.length ? payment.orderNumbers.join(", ") : "—"}
      </td>
      <td className={`${cell} text-right tabular-nums`}>
        <Link
          to={`/admin/orders?userId=${payment.userId}`}
          aria-label={t("admin.payments.ordersOfUser", { id: payment.userId })}
          className={`font-medium text-accent-strong underline ${textLinkClass}`}
        >
          {payment.userId}
        </Link>
      </td>
      <td className={cell}>
        <span className="block text-ink capitalize">{payment.provider}</span>
        <span className="block max-w-56 font-mono text-xs break-all text-muted">
          {payment.providerPaymentId}
        </span>
      </td>
      <td className={cell}>
        <span className="block text-ink">
          {STATUS_KEYS.has(payment.status) ? t(`admin.payments.statuses.${payment.status}`) : payment.status}
        </span>
        {payment.disputed && (
          <span className="mt-1 inline-flex items-center gap-1 text-xs font-semibold text-sale">
            <ShieldAlert size={12} aria-hidden />
            {t("admin.payments.disputed")}
          </span>
        )}
      </td>
      <td className={`${cell} text-right font-medium whitespace-nowrap text-ink tabular-nums`}>
        US$ {formatDollars(payment.amount)}
        {payment.currency.toLowerCase() !== "usd" && (
          <span className="block text-xs text-muted uppercase">{payment.currency}</span>
        )}
      </td>
      <td className={`${cell} text-right whitespace-nowrap text-ink tabular-nums`}>
        US$ {formatDollars(payment.refunded)}
        {waiting !== null && (
          <span className="block text-xs text-muted">
            {t("admin.payments.refundRequested", {
              amount: formatDollars(waiting / 100 - payment.refunded),
            })}
          </span>
        )}
      </td>
      <td className={`${cell} text-right`}>
        {refundable ? (
          <Button
            variant="secondary"
            size="sm"
            onClick={onRefund}
            aria-label={t("admin.payments.refundOf", { reference })}
            className="px-3"
          >
            <RotateCcw size={14} aria-hidden />
            {t("admin.payments.refund")}
          </Button>
        ) : (
          payment.status === "approved" && (
            <span className="text-xs whitespace-nowrap text-muted">{t("admin.payments.nothingLeft")}</span>
          )
        )}
      </td>
    </tr>
  );
}

/** User id (sent with the form) and 'needing attention only' (applied as it changes). */
function PaymentFiltersForm({
  filters,
  onApply,
}: {
  filters: PaymentFilters;
  onApply: (next: Partial<PaymentFilters>) => void;
}) {
  const { t } = useTranslation();
  const userId = useUserIdBox(filters.userId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ userId: userId.typed() });
  };

  return (
    <Card as="section" aria-label={t("admin.payments.filters")} className="p-4">
      <form
        onSubmit={submit}
        className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,10rem)_1fr_auto]"
      >
        <UserIdBox label={t("admin.payments.userId")} box={userId} />
        <CheckboxFilter
          label={t("admin.payments.attentionOnly")}
          hint={t("admin.payments.attentionHint")}
          checked={Boolean(filters.attention)}
          onChange={(checked) => onApply({ userId: userId.typed(), attention: checked || undefined })}
        />
        <FilterActions
          apply={t("admin.payments.apply")}
          clear={t("admin.payments.clear")}
          filtered={filters.userId !== undefined || Boolean(filters.attention)}
          onClear={() => onApply({ userId: undefined, attention: undefined })}
        />
      </form>
    </Card>
  );
}

export default PaymentsPage;

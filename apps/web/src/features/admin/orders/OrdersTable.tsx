import { useId } from "react";
import { ChevronDown, TriangleAlert } from "lucide-react";
import { useTranslation } from "@/i18n";
import { ADMIN_ORDER_STATUSES, type AdminOrder, type AdminOrderStatus } from "@voltio/domain/admin-orders";
import { formatDollars } from "@voltio/domain/money";
import { adminPurchaseMove } from "@voltio/domain/transitions";
import { AdminTable, adminCellClass } from "../AdminTable";
import { chartDate } from "../format";
import { keyOf, nameOf } from "./order-names";
import { OrderDetails } from "./OrderDetails";

// Phones show price and user under the date: the two columns would push the selector off screen.
const wide = "hidden sm:table-cell";

/** A status on its way to the server, shown in its order's selector until the list is read again. */
export type StatusBeingSent = { key: string; status: AdminOrderStatus } | null;

/** The orders of a page, each a row that opens to its details. */
export function OrdersTable({
  orders,
  open,
  onToggle,
  sending,
  onStatus,
}: {
  orders: readonly AdminOrder[];
  open: ReadonlySet<string>;
  onToggle: (key: string) => void;
  sending: StatusBeingSent;
  onStatus: (order: AdminOrder, status: AdminOrderStatus) => void;
}) {
  const { t, language } = useTranslation();
  return (
    <AdminTable
      tableClassName="sm:min-w-[34rem]"
      columns={[
        { key: "date", label: t("admin.orders.date") },
        { key: "status", label: t("admin.orders.status") },
        { key: "price", label: t("admin.orders.price"), align: "right", className: wide },
        { key: "user", label: t("admin.orders.user"), align: "right", className: wide },
      ]}
    >
      {orders.map((order) => {
        const key = keyOf(order);
        return (
          <OrderRows
            key={key}
            order={order}
            expanded={open.has(key)}
            onToggle={() => onToggle(key)}
            status={sending?.key === key ? sending.status : order.status}
            busy={sending?.key === key}
            onStatus={(status) => onStatus(order, status)}
            date={chartDate(order.serverPurchaseDate ?? order.updatedAt, language)}
          />
        );
      })}
    </AdminTable>
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
  // The server's own table of moves: what it would refuse is shown greyed out. A number: a checkout paid it.
  const allowed = (choice: AdminOrderStatus) =>
    choice === order.status ||
    "move" in adminPurchaseMove(order.status, choice, { paid: order.number !== null, flag: order.flag });
  const cell = `${adminCellClass} align-top`;
  return (
    <tbody className="border-b border-line last:border-b-0">
      <tr
        // The whole row opens, as docs/product-rules.md says; the date's button is the keyboard's and screen reader's way.
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
              <option key={choice} value={choice} disabled={!allowed(choice)}>
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

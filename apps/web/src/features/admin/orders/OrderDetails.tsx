import { useTranslation } from "@/i18n";
import type { AdminOrder } from "@voltio/domain/admin-orders";
import { formatDollars } from "@voltio/domain/money";
import { Link } from "react-router";
import { Download } from "lucide-react";
import { useState } from "react";
import { useDownloadReceipt } from "@/api/receipt";
import { Button } from "@/components/ui/Button";
import { focusRingClass } from "@/components/ui/focus-ring";
import { capitalised } from "../format";

/** What an order row opens to: its products and shipping, where it goes, and how it was paid. */
export function OrderDetails({ order }: { order: AdminOrder }) {
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
          <Link
            to={`/admin/customers/${order.userId}`}
            className={`font-medium text-accent-strong underline-offset-2 hover:underline ${focusRingClass}`}
          >
            {capitalised(`${order.user.firstName} ${order.user.lastName}`)}
          </Link>
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
        {order.number && <OrderLinks number={order.number} />}
      </section>
    </div>
  );
}

/** The purchase's order page (as its buyer sees it) and its PDF receipt. */
function OrderLinks({ number }: { number: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<"idle" | "busy" | "failed">("idle");
  const downloadReceipt = useDownloadReceipt();
  const download = async () => {
    setState("busy");
    try {
      await downloadReceipt.mutateAsync(number);
      setState("idle");
    } catch {
      setState("failed");
    }
  };
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2">
      <Link
        to={`/purchases/${number}`}
        className={`text-accent-strong underline-offset-2 hover:underline ${focusRingClass}`}
      >
        {t("orderAdmin.orderPage", { number })}
      </Link>
      <Button variant="secondary" size="sm" onClick={() => void download()} disabled={state === "busy"}>
        <Download size={14} aria-hidden />
        {t("orderAdmin.receipt", { number })}
      </Button>
      {state === "failed" && (
        <span role="alert" className="text-xs font-semibold text-sale">
          {t("orderAdmin.receiptFailed")}
        </span>
      )}
    </div>
  );
}

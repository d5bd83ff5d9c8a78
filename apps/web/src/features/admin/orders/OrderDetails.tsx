import { useTranslation } from "@/i18n";
import type { AdminOrder } from "@voltio/domain/admin-orders";
import { formatDollars } from "@voltio/domain/money";
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

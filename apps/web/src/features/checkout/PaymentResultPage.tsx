import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { CircleCheck, Clock } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { FeedbackReply, OrderSummary } from "@voltio/domain/payments";
import { formatDollars } from "@voltio/domain/money";
import { refreshOrders } from "@/api/orders";
import { usePaymentFeedback } from "@/api/payments";
import { useStoreInfo } from "@/api/store";
import { usePageTitle } from "@/components/page-title";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";

/** Why the purchase isn't done, in the shopper's words, for each outcome the server may report. */
const NOT_DONE = {
  pending: "paymentResult.pendingHint",
  rejected: "paymentResult.rejected",
  refund_needed: "paymentResult.refundNeeded",
  amount_mismatch: "paymentResult.amountMismatch",
} as const;

/**
 * /purchase/success and /purchase/failure (SPEC.md §2 Payment result, §4 Payment): the server checks the
 * payment with the provider from this page's query string. 'Purchase successful' only once it confirmed it;
 * anything else is the 'payment is pending' screen, with the reason and a way back to /purchase.
 */
export function PaymentResultPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("paymentResult.title") }));
  const { search } = useLocation();
  const client = useQueryClient();
  const store = useStoreInfo();
  const feedback = usePaymentFeedback(store.data?.paymentProvider, search);
  const status = feedback.data?.Status;

  // The orders just changed on the server: the cart, checkout and purchases read them again.
  useEffect(() => {
    if (status) void refreshOrders(client);
  }, [status, client]);

  if (store.isPending || feedback.isLoading)
    return (
      <p role="status" className="text-muted">
        {t("paymentResult.checking")}
      </p>
    );

  return (
    <Card
      size="lg"
      className="mx-auto flex w-full max-w-2xl flex-col items-center gap-4 px-6 py-12 text-center"
    >
      {status === "approved" ? (
        <Approved reply={feedback.data!} />
      ) : (
        <>
          <span className="grid h-20 w-20 place-items-center rounded-full bg-accent-soft text-accent-strong">
            <Clock size={40} aria-hidden />
          </span>
          <h1 className="text-2xl font-bold text-ink">{t("paymentResult.pending")}</h1>
          <p role="status" className="max-w-md text-muted">
            {status
              ? t(NOT_DONE[status])
              : search.length > 1
                ? t("paymentResult.unknown")
                : t("paymentResult.notCompleted")}
          </p>
          {feedback.data?.reason && <p className="text-sm text-muted">{feedback.data.reason}</p>}
          <Link to="/purchase" className={buttonClass()}>
            {t("paymentResult.backToCheckout")}
          </Link>
        </>
      )}
    </Card>
  );
}

function Approved({ reply }: { reply: FeedbackReply }) {
  const { t } = useTranslation();
  return (
    <>
      <span className="grid h-20 w-20 place-items-center rounded-full bg-accent-soft text-accent-strong">
        <CircleCheck size={40} aria-hidden />
      </span>
      <h1 className="text-2xl font-bold text-ink">{t("paymentResult.success")}</h1>
      <p className="text-sm text-muted">{t("paymentResult.successHint", { payment: reply.Payment })}</p>
      {reply.order && <Summary order={reply.order} />}
      <Link to="/purchases" className={buttonClass()}>
        {t("paymentResult.seePurchases")}
      </Link>
    </>
  );
}

function Summary({ order }: { order: OrderSummary }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="bought" className="w-full text-left">
      <h2 id="bought" className="mb-2 font-semibold text-ink">
        {t("paymentResult.items")}
      </h2>
      <ul className="divide-y divide-line text-sm">
        {order.items.map((item, index) => (
          <li key={index} className="flex justify-between gap-3 py-2">
            <span className="text-ink">
              {item.title}
              {item.discountPercentage !== null && (
                <span className="ml-2 rounded bg-sale/10 px-1.5 text-xs font-semibold text-sale">
                  {t("checkout.itemDiscount", { percentage: item.discountPercentage })}
                </span>
              )}
            </span>
            <span className="shrink-0 text-muted tabular-nums">
              {t("checkout.item", { count: item.amount, price: formatDollars(item.unitPrice) })}
            </span>
          </li>
        ))}
      </ul>
      <dl className="mt-3 flex flex-col gap-1 border-t border-line pt-3 text-sm tabular-nums">
        {(
          [
            ["checkout.productsSum", order.products],
            ["checkout.shippingSum", order.shipping],
            ["checkout.total", order.total],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="flex justify-between last:font-bold">
            <dt className="text-muted">{t(label)}</dt>
            <dd className="text-ink">${formatDollars(value)}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-sm text-muted">
        {t("paymentResult.shipTo", {
          street: order.address.street,
          number: order.address.streetNumber,
          city: order.address.city,
        })}
      </p>
    </section>
  );
}

export default PaymentResultPage;

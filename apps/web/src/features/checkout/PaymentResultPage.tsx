import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { CircleAlert, CircleCheck, CircleX, Clock, RotateCcw } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { FeedbackReply, OrderSummary } from "@voltio/domain/payments";
import { formatDollars, toCents } from "@voltio/domain/money";
import { ApiError } from "@/api/client";
import { usePaymentFeedback } from "./api";
import { checkoutPath } from "./choice";
import { useStoreInfo } from "@/api/store";
import { usePageTitle } from "@/components/page-title";
import { Button, buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { MoneySummary } from "@/components/MoneySummary";

/**
 * /purchase/success and /purchase/failure (docs/product-rules.md §1 Payment result, §8 Payment): the server checks
 * the payment with the provider from this page's query string, and the page says what became of it, truthfully:
 * 'Purchase successful' with the order's number only once it confirmed it; 'Payment declined' with the
 * provider's reason and 'Try again'; the SPEC's 'payment is pending' only for a payment that really is; a
 * payment that can't buy anything (the checkout was closed or paid already, the stock went, the amount was
 * wrong) is being refunded, and says so and why.
 */
export function PaymentResultPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("paymentResult.title") }));
  const { search } = useLocation();
  const store = useStoreInfo();
  const feedback = usePaymentFeedback(store.data?.paymentProvider, search);
  const reply = feedback.data;
  const status = reply?.Status;

  if (store.isPending || feedback.isLoading)
    return (
      <p role="status" className="text-muted">
        {t("paymentResult.checking")}
      </p>
    );

  // Back to what this payment covered (ADR 0015), not to everything pending.
  const retry = checkoutPath();
  return (
    <Card
      size="lg"
      className="mx-auto flex w-full max-w-2xl flex-col items-center gap-4 px-6 py-12 text-center"
    >
      {reply && status === "approved" ? (
        <Approved reply={reply} />
      ) : reply && status === "rejected" ? (
        <Outcome icon={<CircleX size={40} aria-hidden />} tone="bad" heading={t("paymentResult.declined")}>
          <p role="status" className="max-w-md text-muted">
            {t("paymentResult.declinedHint")}
          </p>
          {reply.reason && (
            <p className="max-w-md text-sm font-medium text-ink">
              {t("paymentResult.declinedReason", { reason: reply.reason })}
            </p>
          )}
          <Link to={retry} className={buttonClass()}>
            {t("paymentResult.tryAgain")}
          </Link>
        </Outcome>
      ) : reply && (status === "refund_needed" || status === "amount_mismatch") ? (
        <Outcome icon={<RotateCcw size={40} aria-hidden />} tone="bad" heading={t("paymentResult.refunding")}>
          <p role="status" className="max-w-md text-muted">
            {t(status === "refund_needed" ? "paymentResult.refundNeeded" : "paymentResult.amountMismatch")}
          </p>
          <div className="flex flex-wrap justify-center gap-3">
            <Link to="/purchases" className={buttonClass()}>
              {t("paymentResult.seePurchases")}
            </Link>
            {status === "amount_mismatch" && (
              <Link to={retry} className={buttonClass({ variant: "secondary" })}>
                {t("paymentResult.backToCheckout")}
              </Link>
            )}
          </div>
        </Outcome>
      ) : reply && status === "pending" ? (
        <Outcome icon={<Clock size={40} aria-hidden />} heading={t("paymentResult.pending")}>
          <p role="status" className="max-w-md text-muted">
            {t("paymentResult.pendingHint")}
          </p>
          <Link to={retry} className={buttonClass()}>
            {t("paymentResult.backToCheckout")}
          </Link>
        </Outcome>
      ) : feedback.isError && !(feedback.error instanceof ApiError && feedback.error.status === 404) ? (
        // The server couldn't be asked (offline, a fault): nothing is known about the payment yet.
        <Outcome icon={<CircleAlert size={40} aria-hidden />} heading={t("paymentResult.notDone")}>
          <p role="status" className="max-w-md text-muted">
            {t("paymentResult.checkFailed")}
          </p>
          <Button onClick={() => void feedback.refetch()}>{t("common.retry")}</Button>
        </Outcome>
      ) : (
        <Outcome icon={<CircleAlert size={40} aria-hidden />} heading={t("paymentResult.notDone")}>
          <p role="status" className="max-w-md text-muted">
            {search.length > 1 ? t("paymentResult.unknown") : t("paymentResult.notCompleted")}
          </p>
          <Link to={retry} className={buttonClass()}>
            {t("paymentResult.backToCheckout")}
          </Link>
        </Outcome>
      )}
    </Card>
  );
}

/** An outcome's picture, its heading (the page's one h1) and what follows it. */
function Outcome({
  icon,
  heading,
  tone = "neutral",
  children,
}: {
  icon: ReactNode;
  heading: string;
  tone?: "neutral" | "bad";
  children: ReactNode;
}) {
  return (
    <>
      <span
        className={`grid h-20 w-20 place-items-center rounded-full ${
          tone === "bad" ? "bg-sale/10 text-sale" : "bg-accent-soft text-accent-strong"
        }`}
      >
        {icon}
      </span>
      <h1 className="text-2xl font-bold text-ink">{heading}</h1>
      {children}
    </>
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
      {reply.order && (
        <p className="flex flex-col items-center gap-1 rounded-2xl border border-line bg-surface px-6 py-3">
          <span className="text-xs font-semibold tracking-wide text-muted uppercase">
            {t("paymentResult.orderNumber")}
          </span>{" "}
          <span className="font-mono text-2xl font-bold text-ink">{reply.order.number}</span>
        </p>
      )}
      <p className="text-sm text-muted">{t("paymentResult.successHint", { payment: reply.Payment })}</p>
      {reply.order && <Summary order={reply.order} />}
      <div className="flex flex-wrap justify-center gap-3">
        {reply.order && (
          <Link to={`/purchases/${reply.order.number}`} className={buttonClass()}>
            {t("orderPage.title", { number: reply.order.number })}
          </Link>
        )}
        <Link to="/purchases" className={buttonClass({ variant: reply.order ? "secondary" : "primary" })}>
          {t("paymentResult.seePurchases")}
        </Link>
      </div>
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
      {/* The server summed them by the one money rule (ADR 0015): drawn as every screen draws it. */}
      <div className="mt-3 border-t border-line pt-3">
        <MoneySummary
          productsCents={toCents(order.products)}
          shippingCents={toCents(order.shipping)}
          totalCents={toCents(order.total)}
          testIdPrefix="paid"
        />
      </div>
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

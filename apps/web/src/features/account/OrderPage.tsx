import { useState } from "react";
import { Link, useParams } from "react-router";
import { Download, ExternalLink, PackageCheck, RotateCcw, ShoppingCart } from "lucide-react";
import { formatDollars, toCents } from "@voltio/domain/money";
import type { BuyAgainReply, Purchase, PurchaseLine, Shipment } from "@voltio/domain/purchase";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { useDownloadReceipt } from "@/api/receipt";
import { useSession } from "@/api/session";
import { NotFoundPage } from "@/components/NotFoundPage";
import { LoadError } from "@/components/LoadError";
import { MoneySummary } from "@/components/MoneySummary";
import { usePageTitle } from "@/components/page-title";
import { Button, buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { focusRingClass } from "@/components/ui/focus-ring";
import { useBuyAgain, usePurchase } from "./purchase-api";
import { localDateTime } from "./date-format";
import { StatusBadge } from "./StatusBadge";
import { Thumbnail } from "@/components/ui/Thumbnail";

/** Dollars as the cart, checkout and the result page write them. */
const usd = (dollars: number) => `$${formatDollars(dollars)}`;

/**
 * /purchases/:number: one purchase as its buyer (or an admin) sees it — the number,
 * when it was paid, every line with its sale, the money, where it goes, how it was paid, and each shipment's
 * history with its tracking — with its PDF receipt and "buy again". A number that isn't the caller's is the
 * store's not-found page, as a number that names nothing.
 */
export function OrderPage() {
  const { number = "" } = useParams();
  const { t } = useTranslation();
  const purchase = usePurchase(number);
  usePageTitle(t("titles.page", { page: t("orderPage.title", { number }) }));
  if (purchase.isPending)
    return (
      <p role="status" className="text-muted">
        {t("common.loading")}
      </p>
    );
  if (purchase.isError) {
    if (purchase.error instanceof ApiError && purchase.error.status === 404)
      return <NotFoundPage message={t("orderPage.notFound")} />;
    return <LoadError onRetry={() => void purchase.refetch()} />;
  }
  return <OrderDetails purchase={purchase.data} />;
}

function OrderDetails({ purchase }: { purchase: Purchase }) {
  const { t, language } = useTranslation();
  const titleOf = new Map(purchase.lines.map((line) => [line.orderId, line.title]));
  return (
    <div className="flex flex-col gap-6">
      <nav aria-label={t("orderPage.breadcrumb")} className="text-sm">
        <Link
          to="/purchases"
          className={`text-accent-strong underline-offset-2 hover:underline ${focusRingClass}`}
        >
          {t("purchases.title")}
        </Link>
      </nav>
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink">
            {t("orderPage.title", { number: purchase.number })}
          </h1>
          <p className="text-muted">
            {t("orderPage.placed", { date: localDateTime(purchase.purchaseDate, language) })}
          </p>
        </div>
        <Actions purchase={purchase} />
      </header>

      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <Card as="section" size="lg" aria-labelledby="order-lines" className="p-5">
          <h2 id="order-lines" className="mb-3 text-lg font-semibold text-ink">
            {t("orderPage.lines")}
          </h2>
          <ul className="divide-y divide-line">
            {purchase.lines.map((line) => (
              <LineRow key={line.orderId} line={line} />
            ))}
          </ul>
          <div className="mt-4 border-t border-line pt-4">
            <MoneySummary
              productsCents={toCents(purchase.products)}
              shippingCents={toCents(purchase.shipping)}
              totalCents={toCents(purchase.total)}
              testIdPrefix="order"
            />
          </div>
        </Card>

        <div className="flex flex-col gap-6">
          <Card as="section" size="lg" aria-labelledby="order-address" className="p-5">
            <h2 id="order-address" className="mb-2 text-lg font-semibold text-ink">
              {t("orderPage.address")}
            </h2>
            {purchase.shippingAddress ? (
              <address className="text-sm text-ink not-italic">
                {purchase.shippingAddress.street} {purchase.shippingAddress.streetNumber}
                {[purchase.shippingAddress.floor, purchase.shippingAddress.unit].filter(Boolean).length > 0 &&
                  `, ${[purchase.shippingAddress.floor, purchase.shippingAddress.unit].filter(Boolean).join(" ")}`}
                <br />
                {purchase.shippingAddress.postalCode} {purchase.shippingAddress.city}
              </address>
            ) : (
              <p className="text-sm text-muted">{t("orderPage.noAddress")}</p>
            )}
          </Card>
          <Card as="section" size="lg" aria-labelledby="order-payment" className="p-5">
            <h2 id="order-payment" className="mb-2 text-lg font-semibold text-ink">
              {t("orderPage.payment")}
            </h2>
            {purchase.payment ? (
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-muted">{t("orderPage.paidWith")}</dt>
                <dd className="text-ink">
                  {purchase.payment.method ?? t(`orderPage.providers.${purchase.payment.provider}`)}
                </dd>
                <dt className="text-muted">{t("orderPage.reference")}</dt>
                <dd className="font-mono text-xs break-all text-ink">{purchase.payment.reference}</dd>
                <dt className="text-muted">{t("orderPage.paid")}</dt>
                <dd className="text-ink tabular-nums">{usd(purchase.payment.amount)}</dd>
                {purchase.payment.refunded > 0 && (
                  <>
                    <dt className="text-muted">{t("orderPage.refunded")}</dt>
                    <dd className="font-semibold text-sale tabular-nums">{usd(purchase.payment.refunded)}</dd>
                  </>
                )}
              </dl>
            ) : (
              <p className="text-sm text-muted">{t("orderPage.noPayment")}</p>
            )}
            {purchase.refunds.length > 0 && (
              <ul className="mt-3 flex flex-col gap-1 border-t border-line pt-3 text-sm">
                {purchase.refunds.map((refund, index) => (
                  <li key={index} className="text-ink">
                    {t(`orderPage.refundStatus.${refund.status}`, { amount: formatDollars(refund.amount) })}{" "}
                    <span className="text-muted">· {localDateTime(refund.at, language)}</span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      </div>

      <section aria-labelledby="order-shipments" className="flex flex-col gap-4">
        <h2 id="order-shipments" className="text-lg font-semibold text-ink">
          {t("orderPage.shipments")}
        </h2>
        {purchase.shipments.map((shipment, index) => (
          <ShipmentCard
            key={`${shipment.kind}:${shipment.id}`}
            shipment={shipment}
            name={
              purchase.shipments.length > 1
                ? t("orderPage.shipmentOf", { index: index + 1, total: purchase.shipments.length })
                : t("orderPage.shipment")
            }
            titles={shipment.orderIds.map((id) => titleOf.get(id) ?? "")}
          />
        ))}
      </section>
    </div>
  );
}

function LineRow({ line }: { line: PurchaseLine }) {
  const { t } = useTranslation();
  return (
    <li className="flex gap-3 py-3">
      <Thumbnail src={line.picture ?? undefined} width={64} height={64} lazy className="h-16 w-16" />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5 text-sm sm:flex-row sm:justify-between sm:gap-4">
        <div className="flex min-w-0 flex-col gap-0.5">
          <Link
            to={`/product/${line.productId}`}
            className={`line-clamp-2 font-medium text-ink hover:text-accent-strong ${focusRingClass}`}
          >
            {line.title}
          </Link>
          <span className="text-muted tabular-nums">
            {t("orderPage.units", { count: line.amount, price: formatDollars(line.unitPrice) })}
          </span>
          {line.sale && (
            <span className="w-fit rounded bg-sale/10 px-1.5 text-xs font-semibold text-sale">
              {line.sale.discountedUnits > 0
                ? t("orderPage.saleOnUnits", {
                    percentage: line.sale.percentage,
                    count: line.sale.discountedUnits,
                  })
                : t("orderPage.sale", { percentage: line.sale.percentage })}
            </span>
          )}
          <span className="text-xs text-muted">
            {line.shipping > 0
              ? t("orderPage.lineShipping", { cost: formatDollars(line.shipping) })
              : t("orderPage.freeShipping")}
          </span>
        </div>
        <span className="font-semibold text-ink tabular-nums sm:text-right">{usd(line.lineTotal)}</span>
      </div>
    </li>
  );
}

function ShipmentCard({ shipment, name, titles }: { shipment: Shipment; name: string; titles: string[] }) {
  const { t, language } = useTranslation();
  const headingId = `shipment-${shipment.kind}-${shipment.id}`;
  return (
    <Card as="article" size="lg" aria-labelledby={headingId} className="flex flex-col gap-3 p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold text-ink">
          {name}
        </h3>
        <StatusBadge status={shipment.status} />
      </div>
      <p className="text-sm text-muted">{titles.join(" · ")}</p>
      {shipment.trackingNumber && (
        <Tracking number={shipment.trackingNumber} carrier={shipment.carrier} url={shipment.trackingUrl} />
      )}
      <ol
        aria-label={t("orderPage.timelineOf", { shipment: name })}
        className="relative ml-2 border-l-2 border-line"
      >
        {shipment.events.map((event, index) => (
          <li key={index} className="relative pb-3 pl-5 last:pb-0">
            <span
              aria-hidden
              className={`absolute top-1 -left-[7px] h-3 w-3 rounded-full border-2 border-card ${
                event.status === "cancelled" ? "bg-sale" : "bg-accent"
              }`}
            />
            <p className="text-sm font-medium text-ink">{t(`orderPage.events.${event.status}`)}</p>
            <p className="text-xs text-muted">
              <time dateTime={event.at}>{localDateTime(event.at, language)}</time>
            </p>
            {event.trackingNumber && event.status === "onDelivery" && (
              <p className="text-xs text-muted">
                {event.carrier
                  ? t("orderPage.trackingWith", { number: event.trackingNumber, carrier: event.carrier })
                  : t("orderPage.trackingNumber", { number: event.trackingNumber })}
              </p>
            )}
          </li>
        ))}
      </ol>
    </Card>
  );
}

function Tracking({ number, carrier, url }: { number: string; carrier: string | null; url: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-2xl bg-surface px-4 py-3 text-sm">
      <span className="text-ink">
        {carrier
          ? t("orderPage.trackingWith", { number, carrier })
          : t("orderPage.trackingNumber", { number })}
      </span>
      {url && (
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          className={`inline-flex items-center gap-1 font-semibold text-accent-strong underline-offset-2 hover:underline ${focusRingClass}`}
        >
          {t("orderPage.track")}
          <ExternalLink size={14} aria-hidden />
          <span className="sr-only">{t("orderPage.newTab")}</span>
        </a>
      )}
    </div>
  );
}

/** Download the receipt, and buy again (not for admins: they can't buy). */
function Actions({ purchase }: { purchase: Purchase }) {
  const { t } = useTranslation();
  const { isAdmin } = useSession();
  const buyAgain = useBuyAgain(purchase.number);
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const downloadReceipt = useDownloadReceipt();
  const download = async () => {
    setDownloading(true);
    setDownloadFailed(false);
    try {
      await downloadReceipt.mutateAsync(purchase.number);
    } catch {
      setDownloadFailed(true);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div className="flex flex-col gap-3 sm:items-end">
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => void download()} disabled={downloading}>
          <Download size={18} aria-hidden />
          {downloading ? t("orderPage.downloading") : t("orderPage.receipt")}
        </Button>
        {!isAdmin && (
          <Button onClick={() => buyAgain.mutate()} disabled={buyAgain.isPending}>
            <RotateCcw size={18} aria-hidden />
            {t("orderPage.buyAgain")}
          </Button>
        )}
      </div>
      <div role="status" aria-live="polite" className="contents">
        {downloadFailed && <p className="text-sm text-sale">{t("orderPage.receiptFailed")}</p>}
        {buyAgain.isError && <p className="text-sm text-sale">{t("orderPage.buyAgainFailed")}</p>}
        {buyAgain.data && <BuyAgainResult reply={buyAgain.data} />}
      </div>
    </div>
  );
}

function BuyAgainResult({ reply }: { reply: BuyAgainReply }) {
  const { t } = useTranslation();
  return (
    <Card className="flex max-w-md flex-col gap-2 p-4 text-sm">
      {reply.added.length > 0 ? (
        <p className="flex items-center gap-2 font-medium text-ink">
          <PackageCheck size={18} aria-hidden className="text-accent-strong" />
          {t("orderPage.added", { count: reply.added.reduce((sum, line) => sum + line.added, 0) })}
        </p>
      ) : (
        <p className="font-medium text-ink">{t("orderPage.nothingAdded")}</p>
      )}
      {reply.missing.length > 0 && (
        <ul className="list-disc pl-5 text-muted">
          {reply.missing.map((line) => (
            <li key={line.productId}>
              {line.added === 0
                ? t("orderPage.gone", { title: line.title })
                : t("orderPage.short", { title: line.title, added: line.added, asked: line.asked })}
            </li>
          ))}
        </ul>
      )}
      {reply.added.length > 0 && (
        <Link to="/cart" className={buttonClass({ size: "sm", className: "w-fit" })}>
          <ShoppingCart size={16} aria-hidden />
          {t("orderPage.goToCart")}
        </Link>
      )}
    </Card>
  );
}

export default OrderPage;

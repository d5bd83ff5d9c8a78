import { useId, type ReactNode } from "react";
import { Link, useParams } from "react-router";
import { ChevronLeft, MapPin, ShieldCheck, TriangleAlert, User, UserX } from "lucide-react";
import { useTranslation, type Language } from "@/i18n";
import type { Customer, CustomerPurchase, CustomerReview } from "@voltio/domain/customer";
import { formatDollars } from "@voltio/domain/money";
import { ApiError } from "@/api/client";
import { Avatar } from "@/components/Avatar";
import { LoadError } from "@/components/LoadError";
import { usePageTitle } from "@/components/page-title";
import { Card } from "@/components/ui/Card";
import { Stars } from "@/components/ui/Stars";
import { textLinkClass } from "@/components/ui/text-link";
import { AdminTable, adminCellClass } from "../AdminTable";
import { capitalised } from "../format";
import { useCustomer } from "./api";

const locale = (language: Language) => (language === "es" ? "es" : "en-US");
const dateTime = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(locale(language), { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(iso),
  );
const day = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(locale(language), { dateStyle: "long" }).format(new Date(iso));

const FLAG_KEYS = {
  refund_needed: "refundNeeded",
  amount_mismatch: "amountMismatch",
  refunded: "refunded",
  disputed: "disputed",
} as const;

const positiveId = (value: string | undefined) => {
  const number = Number(value);
  return value && /^\d+$/.test(value) && Number.isSafeInteger(number) && number > 0 ? number : undefined;
};

/**
 * /admin/customers/:id: one customer as the owner looks at them — profile, addresses,
 * lifetime spend, their purchases with totals and statuses, their reviews. Reached from the users screen
 * and from the orders screen. The lists hold the newest ones; the figures count everything.
 */
export function CustomerPage() {
  const { t } = useTranslation();
  const id = positiveId(useParams().id);
  const customer = useCustomer(id);
  const name = customer.data
    ? capitalised(`${customer.data.profile.firstName} ${customer.data.profile.lastName}`)
    : undefined;
  usePageTitle(t("titles.page", { page: name ?? t("customer.title") }));

  const missing = id === undefined || (customer.error instanceof ApiError && customer.error.status === 404);
  return (
    <div className="flex flex-col gap-5">
      <Link
        to="/admin/users"
        className={`inline-flex items-center gap-1 self-start text-sm font-medium text-muted ${textLinkClass}`}
      >
        <ChevronLeft size={16} aria-hidden />
        {t("customer.back")}
      </Link>
      {missing ? (
        <Card size="lg" className="flex flex-col items-center gap-3 px-6 py-16 text-center">
          <UserX size={32} aria-hidden className="text-accent-strong" />
          <h1 className="text-xl font-bold text-ink">{t("customer.notFound")}</h1>
        </Card>
      ) : customer.isError ? (
        <Card size="lg">
          <h1 className="sr-only">{t("customer.title")}</h1>
          <LoadError onRetry={() => void customer.refetch()} className="px-6 py-12" />
        </Card>
      ) : customer.isPending ? (
        <p role="status" className="text-muted">
          {t("common.loading")}
        </p>
      ) : (
        <CustomerView customer={customer.data} name={name!} />
      )}
    </div>
  );
}

function CustomerView({ customer, name }: { customer: Customer; name: string }) {
  const { t, language } = useTranslation();
  const { profile } = customer;
  const admin = profile.rol === "admin";
  return (
    <>
      <header className="flex flex-wrap items-center gap-4">
        <Avatar user={profile} size={64} />
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-xs font-semibold tracking-wide text-muted uppercase">{t("customer.title")}</p>
          <h1 className="text-2xl font-bold tracking-tight break-words text-ink">{name}</h1>
          <p className="text-sm break-all text-muted">{profile.email}</p>
        </div>
      </header>

      {profile.deletedAt && (
        <p
          role="note"
          className="flex items-center gap-2 rounded-xl border border-sale bg-card px-4 py-3 text-sm font-semibold text-sale"
        >
          <TriangleAlert size={16} aria-hidden />
          {t("customer.deleted", { date: day(profile.deletedAt, language) })}
        </p>
      )}

      <section aria-label={t("customer.figures")}>
        {/* Phones give the spend a row of its own: a three-way split would break the amount. */}
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Figure
            label={t("customer.lifetimeSpend")}
            hint={t("customer.lifetimeSpendHint")}
            className="col-span-2 sm:col-span-1"
          >
            US$ {formatDollars(customer.lifetimeSpend)}
          </Figure>
          <Figure label={t("customer.orders")}>{customer.purchaseCount}</Figure>
          <Figure label={t("customer.reviewCount")}>{customer.reviewCount}</Figure>
        </dl>
      </section>

      <div className="grid gap-5 md:grid-cols-2">
        <Panel title={t("customer.profile")}>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted">{t("customer.email")}</dt>
            <dd className="break-all text-ink">{profile.email}</dd>
            <dt className="text-muted">{t("customer.role")}</dt>
            <dd className="flex items-center gap-1.5 text-ink">
              {admin ? <ShieldCheck size={16} aria-hidden /> : <User size={16} aria-hidden />}
              {t(`admin.users.roles.${profile.rol}`)}
            </dd>
            <dt className="text-muted">{t("customer.since")}</dt>
            <dd className="text-ink">{day(profile.createdAt, language)}</dd>
            <dt className="text-muted">{t("customer.signIn")}</dt>
            <dd className="text-ink">{profile.googleUser ? t("customer.google") : t("customer.password")}</dd>
            <dt className="text-muted">{t("customer.newsletter")}</dt>
            <dd className="text-ink">
              {profile.newsletterSubscription ? t("customer.subscribed") : t("customer.notSubscribed")}
            </dd>
          </dl>
        </Panel>
        <Panel title={t("customer.addresses")}>
          {customer.addresses.length === 0 ? (
            <p className="text-sm text-muted">{t("customer.noAddresses")}</p>
          ) : (
            <ul className="flex flex-col gap-3 text-sm">
              {customer.addresses.map((address) => (
                <li key={address.id} className="flex gap-2">
                  <MapPin size={16} aria-hidden className="mt-0.5 shrink-0 text-muted" />
                  <span className="text-ink">
                    {address.street} {address.streetNumber}
                    {address.floor && `, ${t("customer.floor", { floor: address.floor })}`}
                    {address.unit && `, ${t("customer.unit", { unit: address.unit })}`}
                    <span className="block text-muted">
                      {address.postalCode} {address.city}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>

      <Purchases customer={customer} />
      <Reviews reviews={customer.reviews} total={customer.reviewCount} />
    </>
  );
}

function Figure({
  label,
  hint,
  className = "",
  children,
}: {
  label: string;
  hint?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card className={`flex min-w-0 flex-col gap-1 p-3 sm:p-4 ${className}`}>
      <dt className="text-xs font-medium text-muted">{label}</dt>
      <dd className="order-first text-lg font-bold break-words text-ink tabular-nums sm:text-2xl">
        {children}
      </dd>
      {hint && <dd className="text-xs text-muted">{hint}</dd>}
    </Card>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card as="section" size="lg" aria-labelledby={headingId} className="p-4 sm:p-6">
      <h2 id={headingId} className="mb-3 text-lg font-semibold text-ink">
        {title}
      </h2>
      {children}
    </Card>
  );
}

const pill =
  "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap";

function Purchases({ customer }: { customer: Customer }) {
  const { t, language } = useTranslation();
  const headingId = useId();
  const { purchases, purchaseCount, profile } = customer;
  // Phones show the date under the number: four columns would push the status out of view.
  const wide = "hidden sm:table-cell";
  const cell = `${adminCellClass} align-top`;
  return (
    <Card as="section" size="lg" aria-labelledby={headingId} className="overflow-hidden">
      <div className="flex flex-wrap items-baseline justify-between gap-2 px-4 pt-4 sm:px-6 sm:pt-6">
        <h2 id={headingId} className="text-lg font-semibold text-ink">
          {t("customer.purchases")}
        </h2>
        <p className="flex gap-4 text-sm">
          <Link
            to={`/admin/orders?userId=${profile.id}`}
            className={`font-medium text-accent-strong ${textLinkClass}`}
          >
            {t("customer.allOrders")}
          </Link>
          <Link
            to={`/admin/payments?userId=${profile.id}`}
            className={`font-medium text-accent-strong ${textLinkClass}`}
          >
            {t("customer.payments")}
          </Link>
        </p>
      </div>
      {purchases.length === 0 ? (
        <p className="px-4 py-5 text-sm text-muted sm:px-6">{t("customer.noPurchases")}</p>
      ) : (
        <>
          <AdminTable
            className="mt-2"
            columns={[
              { key: "number", label: t("customer.number") },
              { key: "date", label: t("customer.date"), className: wide },
              { key: "total", label: t("customer.total"), align: "right" },
              { key: "status", label: t("customer.status") },
            ]}
          >
            <tbody className="divide-y divide-line">
              {purchases.map((purchase, index) => (
                <PurchaseRow
                  key={purchase.number ?? `old-${index}`}
                  purchase={purchase}
                  date={dateTime(purchase.date, language)}
                  cell={cell}
                  wide={wide}
                />
              ))}
            </tbody>
          </AdminTable>
          {purchaseCount > purchases.length && (
            <p className="border-t border-line px-4 py-3 text-sm text-muted sm:px-6">
              {t("customer.newest", { shown: purchases.length, total: purchaseCount })}
            </p>
          )}
        </>
      )}
    </Card>
  );
}

function PurchaseRow({
  purchase,
  date,
  cell,
  wide,
}: {
  purchase: CustomerPurchase;
  date: string;
  cell: string;
  wide: string;
}) {
  const { t } = useTranslation();
  return (
    <tr className={purchase.flags.length ? "bg-sale/5" : undefined}>
      <td className={cell}>
        {purchase.number ? (
          <Link
            to={`/purchases/${purchase.number}`}
            className={`font-mono font-medium text-accent-strong ${textLinkClass}`}
          >
            {purchase.number}
          </Link>
        ) : (
          <span className="text-muted italic">{t("customer.noNumber")}</span>
        )}
        <span className="block text-xs text-muted">{t("customer.units", { count: purchase.units })}</span>
        <span className="block text-xs text-muted sm:hidden">{date}</span>
      </td>
      <td className={`${cell} ${wide} text-ink`}>{date}</td>
      <td className={`${cell} text-right whitespace-nowrap tabular-nums`}>
        <span className="font-medium text-ink">US$ {formatDollars(purchase.total)}</span>
        {purchase.refunded > 0 && (
          <span className="block text-xs text-sale">
            {t("customer.refunded", { amount: formatDollars(purchase.refunded) })}
          </span>
        )}
      </td>
      <td className={cell}>
        <span className="flex flex-wrap gap-1">
          {purchase.statuses.map((status) => (
            <span
              key={status}
              className={`${pill} border ${status === "cancelled" ? "border-sale text-sale" : "border-line text-ink"}`}
            >
              {t(`admin.orders.statuses.${status}`)}
            </span>
          ))}
          {purchase.flags.map((flag) => (
            <span key={flag} className={`${pill} bg-sale text-on-sale`}>
              <TriangleAlert size={12} aria-hidden />
              {t(`admin.orders.flags.${FLAG_KEYS[flag]}`)}
            </span>
          ))}
        </span>
      </td>
    </tr>
  );
}

function Reviews({ reviews, total }: { reviews: CustomerReview[]; total: number }) {
  const { t, language } = useTranslation();
  const headingId = useId();
  return (
    <Card as="section" size="lg" aria-labelledby={headingId} className="p-4 sm:p-6">
      <h2 id={headingId} className="mb-3 text-lg font-semibold text-ink">
        {t("customer.reviews")}
      </h2>
      {reviews.length === 0 ? (
        <p className="text-sm text-muted">{t("customer.noReviews")}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line">
          {reviews.map((review) => (
            <li key={review.id} className="py-3 first:pt-0 last:pb-0">
              <article aria-label={t("customer.reviewOf", { product: review.productTitle })}>
                <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <Link
                    to={`/product/${review.productId}`}
                    className={`font-medium break-words text-ink ${textLinkClass}`}
                  >
                    {review.productTitle}
                  </Link>
                  <span className="text-xs text-muted">{day(review.updatedAt, language)}</span>
                </div>
                <div className="mt-1">
                  <Stars value={review.rating} />
                </div>
                {review.content && (
                  <p className="mt-1 text-sm break-words whitespace-pre-wrap text-ink">{review.content}</p>
                )}
              </article>
            </li>
          ))}
        </ul>
      )}
      {total > reviews.length && (
        <p className="mt-3 text-sm text-muted">{t("customer.newest", { shown: reviews.length, total })}</p>
      )}
    </Card>
  );
}

export default CustomerPage;

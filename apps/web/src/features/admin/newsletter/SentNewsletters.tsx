import { useId } from "react";
import { Inbox } from "lucide-react";
import { useTranslation, type Language } from "@/i18n";
import type { NewsletterPage, NewsletterSummary } from "@voltio/domain/newsletter";
import { LoadError } from "@/components/LoadError";
import { Card } from "@/components/ui/Card";
import { PageBar } from "../PageBar";

/** Date and time in the page's language and the admin's own time zone. */
const dateTime = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(language === "es" ? "es" : "en-US", {
    dateStyle: "medium",
    timeStyle: "short",
  }).format(new Date(iso));

/**
 * 'Sent newsletters': newest first, each with its date, subject, sender and how far the
 * mail worker got (queued / sent / failed); the page reads it again while anything is queued.
 */
export function SentNewsletters({
  query,
  page,
  onPage,
}: {
  query: { data: NewsletterPage | undefined; isError: boolean; refetch: () => unknown };
  page: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const data = query.data;
  const totalPages = Math.max(data?.totalPages ?? 1, 1);
  return (
    <Card as="section" size="lg" aria-labelledby={`${id}-heading`} className="flex flex-col p-4 sm:p-6">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-ink">
        {t("admin.newsletter.history.title")}
      </h2>
      {query.isError && !data ? (
        <LoadError onRetry={() => void query.refetch()} className="py-8" />
      ) : !data ? (
        <p role="status" className="py-6 text-muted">
          {t("common.loading")}
        </p>
      ) : data.newsletters.length === 0 ? (
        <p className="flex flex-col items-center gap-3 py-10 text-center text-muted">
          <Inbox size={32} aria-hidden className="text-accent-strong" />
          {t("admin.newsletter.history.empty")}
        </p>
      ) : (
        <>
          <ul className="mt-3 divide-y divide-line">
            {data.newsletters.map((newsletter) => (
              <SentItem key={newsletter.id} newsletter={newsletter} />
            ))}
          </ul>
          {totalPages > 1 && (
            <PageBar
              label={t("admin.newsletter.history.pages")}
              page={page}
              totalPages={totalPages}
              onPage={onPage}
              className="mt-3"
            />
          )}
        </>
      )}
    </Card>
  );
}

function SentItem({ newsletter }: { newsletter: NewsletterSummary }) {
  const { t, language } = useTranslation();
  const { queued, sent, failed } = newsletter.delivery;
  const total = queued + sent + failed;
  const share = (count: number) => (total === 0 ? 0 : (count / total) * 100);
  const sender = newsletter.sentBy
    ? t("admin.newsletter.history.by", {
        name: `${newsletter.sentBy.firstName} ${newsletter.sentBy.lastName}`.trim(),
      })
    : t("admin.newsletter.history.byDeleted");
  return (
    <li>
      <article aria-label={newsletter.title} className="flex flex-col gap-2 py-3">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h3 className="min-w-0 font-medium break-words text-ink">{newsletter.title}</h3>
          <span className="text-xs text-muted tabular-nums">
            {t("admin.newsletter.history.receivers", { count: total })}
          </span>
        </div>
        <p className="text-xs text-muted">
          <time dateTime={newsletter.createdAt}>{dateTime(newsletter.createdAt, language)}</time> · {sender}
        </p>
        {/* The bar is a picture of the figures written beside it. */}
        <div aria-hidden className="flex h-2 overflow-hidden rounded-full bg-line">
          <span className="bg-success transition-[width]" style={{ width: `${share(sent)}%` }} />
          <span className="bg-sale transition-[width]" style={{ width: `${share(failed)}%` }} />
        </div>
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
          <Figure label={t("admin.newsletter.history.sent")} count={sent} dot="bg-success" />
          <Figure
            label={t("admin.newsletter.history.queued")}
            count={queued}
            dot="border border-muted bg-line"
          />
          <Figure label={t("admin.newsletter.history.failed")} count={failed} dot="bg-sale" />
        </dl>
      </article>
    </li>
  );
}

function Figure({ label, count, dot }: { label: string; count: number; dot: string }) {
  return (
    <div className="flex items-center gap-1.5">
      <span aria-hidden className={`h-2 w-2 rounded-full ${dot}`} />
      <dt className="text-muted">{label}</dt>
      <dd className="font-semibold text-ink tabular-nums">{count}</dd>
    </div>
  );
}

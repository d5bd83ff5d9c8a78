import { useEffect, useId, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Award, X } from "lucide-react";
import { formatSpec } from "@voltio/domain/specs";
import { ApiError } from "@/api/client";
import {
  compareIdsOf,
  comparePath,
  removeFromCompare,
  replaceCompareList,
  useCompareList,
} from "@/components/compare-list";
import { LoadError } from "@/components/LoadError";
import { usePageTitle } from "@/components/page-title";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { focusRingClass } from "@/components/ui/focus-ring";
import { Skeleton } from "@/components/ui/Skeleton";
import { RatingSummary } from "@/components/ui/Stars";
import { usd } from "@/components/ui/usd";
import { useTranslation } from "@/i18n";
import { useComparison, type CompareReply } from "./api";
import { compareRows } from "./compare-rows";

/**
 * Compare (issue 41 point 6): /compare?ids=1,2 puts up to 4 products of one category side by side, the rows
 * that differ highlighted and the best value per row marked in words and with an icon, not by colour alone.
 * Without ?ids= the page shows the list kept in this browser (guests too); with them, that list becomes
 * the page's, so a shared link is kept as well.
 */
export function ComparePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const stored = useCompareList();
  const urlIds = compareIdsOf(params.get("ids"));
  const ids = urlIds.length > 0 ? urlIds : stored.map((item) => item.id);
  const comparison = useComparison(ids);
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const toggleId = useId();
  usePageTitle(t("titles.page", { page: t("compare.title") }));

  // The browser's list follows the page's products (a shared link, or ids no longer for sale dropped).
  const reply = comparison.data;
  useEffect(() => {
    if (!reply || urlIds.length === 0) return;
    replaceCompareList(
      reply.products.map((product) => ({
        id: product.id,
        title: product.title,
        categoryIds: reply.category ? [reply.category.id] : [],
        categoryName: reply.category?.name ?? "",
      })),
    );
    // Run when the reply changes only: the ids are part of its key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reply]);

  const remove = (id: number) => {
    removeFromCompare(id);
    const rest = ids.filter((other) => other !== id);
    void navigate(rest.length > 0 ? comparePath(rest) : "/compare", { replace: true });
  };

  const heading = (
    <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
      {t("compare.title")}
      {reply?.category && <span className="text-muted"> · {reply.category.name}</span>}
    </h1>
  );

  if (ids.length === 0)
    return (
      <div className="flex flex-col gap-4">
        {heading}
        <Card className="flex flex-col items-start gap-3 p-8">
          <h2 className="text-lg font-semibold text-ink">{t("compare.empty")}</h2>
          <p className="text-sm text-muted">{t("compare.emptyHint")}</p>
          <Link to="/products?offset=1" className={buttonClass({ size: "md" })}>
            {t("compare.browse")}
          </Link>
        </Card>
      </div>
    );

  if (comparison.isError) {
    const refused = comparison.error instanceof ApiError && comparison.error.status < 500;
    return (
      <div className="flex flex-col gap-4">
        {heading}
        {refused ? (
          <Card className="flex flex-col items-start gap-3 p-8" role="alert">
            <h2 className="text-lg font-semibold text-ink">{t("compare.failed")}</h2>
            <p className="text-sm text-muted">{comparison.error.message}</p>
            <button
              type="button"
              onClick={() => {
                replaceCompareList([]);
                void navigate("/compare", { replace: true });
              }}
              className={buttonClass({ size: "md", variant: "secondary" })}
            >
              {t("compare.clear")}
            </button>
          </Card>
        ) : (
          <LoadError onRetry={() => void comparison.refetch()} />
        )}
      </div>
    );
  }

  if (!reply)
    return (
      <div className="flex flex-col gap-4" role="status" aria-busy="true">
        {heading}
        <Skeleton className="h-96 w-full rounded-2xl" />
      </div>
    );

  return (
    <div className="flex flex-col gap-4">
      {heading}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted">
          {reply.products.length < 2 ? t("compare.one") : t("compare.differsHint")}
        </p>
        <label htmlFor={toggleId} className="inline-flex items-center gap-2 text-sm font-medium text-ink">
          <input
            id={toggleId}
            type="checkbox"
            checked={onlyDifferences}
            onChange={(event) => setOnlyDifferences(event.target.checked)}
            className="h-4 w-4 accent-accent"
          />
          {t("compare.onlyDifferences")}
        </label>
      </div>
      <CompareTable reply={reply} onlyDifferences={onlyDifferences} onRemove={remove} />
    </div>
  );
}

function CompareTable({
  reply,
  onlyDifferences,
  onRemove,
}: {
  reply: CompareReply;
  onlyDifferences: boolean;
  onRemove: (id: number) => void;
}) {
  const { t } = useTranslation();
  const rows = compareRows(reply).filter((row) => !onlyDifferences || row.differs);
  return (
    // The table scrolls sideways on a phone; its first column names every row.
    <div
      className="overflow-x-auto rounded-2xl border border-line bg-card"
      tabIndex={0}
      role="region"
      aria-label={t("compare.title")}
    >
      <table className="w-full min-w-[36rem] border-collapse text-sm">
        <caption className="sr-only">{t("compare.differsHint")}</caption>
        <thead>
          <tr className="border-b border-line">
            <th scope="col" className="w-40 p-3 text-left text-xs font-semibold text-muted uppercase">
              {t("compare.feature")}
            </th>
            {reply.products.map((product) => (
              <th key={product.id} scope="col" className="p-3 text-left align-top font-normal">
                <div className="flex flex-col gap-2">
                  {product.images[0] && (
                    <img
                      src={product.images[0].url}
                      alt=""
                      width={160}
                      height={120}
                      className="aspect-[4/3] w-full max-w-40 rounded-xl bg-accent-soft object-contain"
                    />
                  )}
                  <Link
                    to={`/product/${product.id}`}
                    className={`line-clamp-3 font-semibold text-ink hover:text-accent-strong hover:underline ${focusRingClass}`}
                  >
                    {product.title}
                  </Link>
                  <button
                    type="button"
                    onClick={() => onRemove(product.id)}
                    aria-label={t("compare.remove", { title: product.title })}
                    className={`inline-flex min-h-9 items-center gap-1 self-start rounded-lg border border-line px-2 text-xs font-semibold text-muted transition hover:border-sale hover:text-sale ${focusRingClass}`}
                  >
                    <X size={14} aria-hidden />
                    {t("compare.removeShort")}
                  </button>
                </div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr className="border-b border-line">
            <th scope="row" className="p-3 text-left font-medium text-muted">
              {t("compare.price")}
            </th>
            {reply.products.map((product) => (
              <td key={product.id} className="p-3 font-bold text-ink tabular-nums">
                {usd(Math.round(product.price * 100))}
              </td>
            ))}
          </tr>
          <tr className="border-b border-line">
            <th scope="row" className="p-3 text-left font-medium text-muted">
              {t("compare.rating")}
            </th>
            {reply.products.map((product) => (
              <td key={product.id} className="p-3">
                {product.rating.count > 0 ? (
                  <RatingSummary rating={product.rating} size={12} />
                ) : (
                  <>
                    <span aria-hidden>{t("compare.notGiven")}</span>
                    <span className="sr-only">{t("compare.notGivenSr")}</span>
                  </>
                )}
              </td>
            ))}
          </tr>
          {rows.map((row) => (
            <tr
              key={row.key}
              className={`border-b border-line last:border-b-0 ${row.differs ? "bg-accent-soft/60" : ""}`}
            >
              <th scope="row" className="p-3 text-left align-top font-medium text-muted">
                <span className="flex flex-col gap-1">
                  {row.label ?? t("compare.brand")}
                  {row.differs && (
                    <span className="self-start rounded-md border border-accent/40 px-1.5 text-[11px] font-semibold text-accent-strong">
                      {t("compare.differs")}
                    </span>
                  )}
                </span>
              </th>
              {row.cells.map((cell) => (
                <td key={cell.productId} className="p-3 align-top text-ink tabular-nums">
                  {cell.value === null ? (
                    <>
                      <span aria-hidden>{t("compare.notGiven")}</span>
                      <span className="sr-only">{t("compare.notGivenSr")}</span>
                    </>
                  ) : (
                    <span
                      className={`inline-flex flex-wrap items-center gap-1.5 ${cell.best ? "font-bold" : ""}`}
                    >
                      {formatSpec(cell.value, row.unit)}
                      {cell.best && (
                        <span className="inline-flex items-center gap-1 rounded-md border border-success bg-card px-1.5 py-0.5 text-[11px] font-semibold text-ink">
                          <Award size={12} aria-hidden className="text-success" />
                          {t("compare.best")}
                        </span>
                      )}
                    </span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default ComparePage;

import { Link } from "react-router";
import { Check, GitCompareArrows } from "lucide-react";
import type { Product } from "@voltio/domain/catalog";
import {
  MAX_COMPARED,
  addToCompare,
  comparePath,
  removeFromCompare,
  useCompareList,
} from "@/components/compare-list";
import { focusRingClass } from "@/components/ui/focus-ring";
import { textLinkClass } from "@/components/ui/text-link";
import { showToast } from "@/components/ui/toast";
import { useTranslation } from "@/i18n";

/**
 * Add to compare (issue 41 point 6): up to MAX_COMPARED products of one category, kept in the browser. A
 * refusal (full, another category) is said in a toast and beside the button, in words.
 */
export function CompareButton({ product }: { product: Pick<Product, "id" | "title" | "categories"> }) {
  const { t } = useTranslation();
  const items = useCompareList();
  const inList = items.some((item) => item.id === product.id);
  const category = product.categories[0];

  const toggle = () => {
    if (inList) {
      removeFromCompare(product.id);
      showToast(t("compare.removed_toast"));
      return;
    }
    const refusal = addToCompare({
      id: product.id,
      title: product.title,
      categoryIds: product.categories.map((item) => item.id),
      categoryName: category?.name ?? "",
    });
    if (!refusal) showToast(t("compare.added_toast"));
    else
      showToast(
        refusal.reason === "full"
          ? t("compare.full", { max: MAX_COMPARED })
          : t("compare.otherCategory", { category: refusal.categoryName }),
        "error",
      );
  };

  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        aria-pressed={inList}
        onClick={toggle}
        className={`inline-flex min-h-11 items-center gap-2 rounded-xl border px-4 text-sm font-semibold transition ${focusRingClass} ${
          inList
            ? "border-accent bg-accent-soft text-accent-strong"
            : "border-line bg-card text-ink hover:border-accent hover:text-accent-strong"
        }`}
      >
        {inList ? <Check size={18} aria-hidden /> : <GitCompareArrows size={18} aria-hidden />}
        {inList ? t("compare.added") : t("compare.add")}
      </button>
      {items.length > 0 && (
        <Link
          to={comparePath(items.map((item) => item.id))}
          className={`text-sm font-semibold ${textLinkClass}`}
        >
          {t("compare.link", { count: items.length })}
        </Link>
      )}
    </div>
  );
}

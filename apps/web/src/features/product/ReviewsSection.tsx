import { useTranslation } from "@/i18n";
import { MessageSquareText } from "lucide-react";

/**
 * Where the product's reviews go (SPEC.md §2). The reviews work fills this section with the list, the star
 * rating and the shopper's own review; until then it says that there are none to show.
 */
export function ReviewsSection({ productId }: { productId: number }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="reviews-heading" data-product-id={productId}>
      <h2 id="reviews-heading" className="text-xl font-bold tracking-tight text-ink">
        {t("product.reviews")}
      </h2>
      <div className="mt-4 flex items-center gap-3 rounded-2xl border border-dashed border-line bg-card p-6 text-sm text-muted">
        <MessageSquareText size={22} aria-hidden className="shrink-0" />
        {t("product.noReviews")}
      </div>
    </section>
  );
}

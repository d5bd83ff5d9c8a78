import { Star } from "lucide-react";
import { useTranslation } from "@/i18n";
import { RATING_MAX } from "@voltio/domain/review-rules";

const SCALE = Array.from({ length: RATING_MAX }, (_, index) => index + 1);

/**
 * A rating shown as five stars, filled to the value (halves too). Screen readers hear one phrase ('4.5 out
 * of 5 stars') instead of five pictures.
 */
export function Stars({ value, size = 16 }: { value: number; size?: number }) {
  const { t } = useTranslation();
  return (
    <span
      role="img"
      aria-label={t("reviews.outOf", { value: value.toFixed(1).replace(/\.0$/, ""), max: RATING_MAX })}
      className="inline-flex items-center"
    >
      {SCALE.map((star) => {
        const fill = Math.max(0, Math.min(1, value - star + 1));
        return (
          <span key={star} className="relative inline-block" style={{ width: size, height: size }}>
            <Star size={size} aria-hidden className="absolute inset-0 text-line" fill="currentColor" />
            {fill > 0 && (
              <span className="absolute inset-0 overflow-hidden" style={{ width: `${fill * 100}%` }}>
                <Star
                  size={size}
                  aria-hidden
                  className="text-amber-600 dark:text-amber-400"
                  fill="currentColor"
                />
              </span>
            )}
          </span>
        );
      })}
    </span>
  );
}

/** The average and the count of a product's reviews, or nothing before its first review. */
export function RatingSummary({
  rating,
  size,
}: {
  rating: { average: number; count: number };
  size?: number;
}) {
  const { t } = useTranslation();
  if (rating.count === 0) return null;
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted">
      <Stars value={rating.average} size={size} />
      <span>{t("reviews.count", { count: rating.count })}</span>
    </span>
  );
}

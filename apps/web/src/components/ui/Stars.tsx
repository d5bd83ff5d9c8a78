import { Star } from "lucide-react";
import { useTranslation } from "@/i18n";
import { RATING_MAX } from "@voltio/domain/review-rules";

const SCALE = Array.from({ length: RATING_MAX }, (_, index) => index + 1);

/**
 * How much of a star is filled, to a tenth, as a class: a style attribute would be refused by the
 * Content-Security-Policy on a page rendered on the server.
 */
const FILLED = [
  "w-0",
  "w-[10%]",
  "w-[20%]",
  "w-[30%]",
  "w-[40%]",
  "w-[50%]",
  "w-[60%]",
  "w-[70%]",
  "w-[80%]",
  "w-[90%]",
  "w-full",
] as const;

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
        const tenths = Math.round(Math.max(0, Math.min(1, value - star + 1)) * 10);
        return (
          <span key={star} className="relative inline-block">
            <Star size={size} aria-hidden className="block text-line" fill="currentColor" />
            {tenths > 0 && (
              <span className={`absolute inset-y-0 left-0 overflow-hidden ${FILLED[tenths]}`}>
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

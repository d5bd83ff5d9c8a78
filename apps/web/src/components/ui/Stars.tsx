import { useId } from "react";
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

/**
 * The 5-star picker of the review form: a radio group, so it works with the arrow keys and a screen reader
 * reads '4 stars, 4 of 5'. The stars up to the chosen one light up.
 */
export function StarPicker({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="text-sm font-medium text-ink">{t("reviews.rating")}</legend>
      <div className="flex gap-1">
        {SCALE.map((star) => (
          <label
            key={star}
            className="cursor-pointer rounded-md has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent"
          >
            <input
              type="radio"
              name={name}
              value={star}
              checked={value === star}
              onChange={() => onChange(star)}
              className="sr-only"
            />
            <span className="sr-only">{t("reviews.stars", { count: star })}</span>
            {/* Unpicked stars are outlines in the muted text colour: visible on both themes. */}
            <Star
              size={28}
              aria-hidden
              className={star <= value ? "text-amber-600 dark:text-amber-400" : "text-muted"}
              fill={star <= value ? "currentColor" : "none"}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

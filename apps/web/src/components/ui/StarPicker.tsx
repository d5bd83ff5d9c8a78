import { useId } from "react";
import { Star } from "lucide-react";
import { useTranslation } from "@/i18n";
import { RATING_MAX } from "@voltio/domain/review-rules";

// A file of its own: only the review form needs it, not every product tile and page that shows stars.
const SCALE = Array.from({ length: RATING_MAX }, (_, index) => index + 1);

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

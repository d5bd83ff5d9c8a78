import { useState, type FormEvent } from "react";
import { useTranslation } from "@/i18n";
import { ArrowDownWideNarrow, ArrowUpNarrowWide, Star, Truck } from "lucide-react";
import { focusRingClass } from "@/components/ui/focus-ring";
import { withFreeShippingToggled, withOrderToggled, withoutFilters, withPrice } from "./listing-query";

const SORT_ICONS = { ASC: ArrowUpNarrowWide, DESC: ArrowDownWideNarrow, RATING: Star };
const SORT_LABELS = { ASC: "listing.sortAsc", DESC: "listing.sortDesc", RATING: "reviews.sortByRating" };

interface FilterPanelProps {
  params: URLSearchParams;
  onChange: (next: URLSearchParams) => void;
}

const fieldClass =
  "h-11 w-full min-w-0 rounded-xl border border-line bg-surface px-3 text-sm text-ink tabular-nums placeholder:text-muted focus:border-accent focus:outline-2 focus:-outline-offset-1 focus:outline-accent";

/** The listing's filters (docs/product-rules.md §1): price range, free shipping and the price order, all in the URL. */
export function FilterPanel({ params, onChange }: FilterPanelProps) {
  const { t } = useTranslation();
  const minPrice = params.get("minPrice") ?? "";
  const maxPrice = params.get("maxPrice") ?? "";
  const freeShipping = params.get("freeShipping") === "true";
  const order = params.get("order");
  const [error, setError] = useState<string | null>(null);
  const filtered = Boolean(minPrice || maxPrice || freeShipping || order);

  const submitPrice = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const min = String(data.get("minPrice") ?? "").trim();
    const max = String(data.get("maxPrice") ?? "").trim();
    if (min !== "" && max !== "" && Number(min) > Number(max)) {
      setError(t("listing.minAboveMax"));
      return;
    }
    setError(null);
    onChange(withPrice(params, min, max));
  };

  const sortButton = (value: "ASC" | "DESC" | "RATING") => {
    const pressed = order === value;
    const Icon = SORT_ICONS[value];
    return (
      <button
        type="button"
        aria-pressed={pressed}
        onClick={() => onChange(withOrderToggled(params, value))}
        className={`inline-flex min-h-11 flex-1 items-center justify-center gap-2 rounded-xl border px-3 lg:justify-start text-sm font-medium transition ${focusRingClass} ${
          pressed
            ? "border-accent bg-accent text-on-accent"
            : "border-line bg-card text-ink hover:border-accent hover:text-accent-strong"
        }`}
      >
        <Icon size={16} aria-hidden />
        {t(SORT_LABELS[value])}
      </button>
    );
  };

  return (
    <div className="flex flex-col gap-7">
      {/* Keyed by the URL values, so back and forward refill the boxes. */}
      <form key={`${minPrice}|${maxPrice}`} onSubmit={submitPrice} noValidate aria-labelledby="filter-price">
        <h3 id="filter-price" className="mb-3 text-sm font-semibold text-ink">
          {t("listing.price")}
        </h3>
        <div className="flex items-end gap-2">
          <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-muted">
            {t("listing.min")}
            <input
              name="minPrice"
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              defaultValue={minPrice}
              placeholder="0"
              aria-invalid={error !== null}
              aria-describedby={error ? "price-error" : undefined}
              className={fieldClass}
            />
          </label>
          <span aria-hidden className="pb-3 text-muted">
            –
          </span>
          <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-muted">
            {t("listing.max")}
            <input
              name="maxPrice"
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              defaultValue={maxPrice}
              placeholder="∞"
              aria-invalid={error !== null}
              aria-describedby={error ? "price-error" : undefined}
              className={fieldClass}
            />
          </label>
        </div>
        {error && (
          <p id="price-error" role="alert" className="mt-2 text-xs font-medium text-sale">
            {error}
          </p>
        )}
        <button
          type="submit"
          className={`mt-3 h-11 w-full rounded-xl bg-ink text-sm font-semibold text-surface transition hover:opacity-90 ${focusRingClass}`}
        >
          {t("listing.applyPrice")}
        </button>
      </form>

      <div>
        <h3 className="mb-3 text-sm font-semibold text-ink">{t("listing.shipping")}</h3>
        <button
          type="button"
          role="switch"
          aria-checked={freeShipping}
          onClick={() => onChange(withFreeShippingToggled(params))}
          className={`flex w-full items-center justify-between gap-3 rounded-xl border border-line bg-card px-3 py-2.5 text-sm font-medium text-ink transition hover:border-accent ${focusRingClass}`}
        >
          <span className="flex items-center gap-2">
            <Truck size={18} aria-hidden className="text-success" />
            {t("catalog.freeShipping")}
          </span>
          <span
            aria-hidden
            className={`relative h-6 w-11 shrink-0 rounded-full transition ${freeShipping ? "bg-accent" : "bg-line"}`}
          >
            <span
              className={`absolute top-0.5 h-5 w-5 rounded-full bg-white shadow transition-all ${freeShipping ? "left-[1.375rem]" : "left-0.5"}`}
            />
          </span>
        </button>
      </div>

      <div role="group" aria-labelledby="filter-sort">
        <h3 id="filter-sort" className="mb-3 text-sm font-semibold text-ink">
          {t("listing.sortBy")}
        </h3>
        <div className="flex flex-col gap-2 min-[400px]:flex-row lg:flex-col">
          {sortButton("ASC")}
          {sortButton("DESC")}
          {sortButton("RATING")}
        </div>
      </div>

      {filtered && (
        <button
          type="button"
          onClick={() => onChange(withoutFilters(params))}
          className={`self-start rounded-lg text-sm font-semibold text-accent-strong hover:underline ${focusRingClass}`}
        >
          {t("listing.clearFilters")}
        </button>
      )}
    </div>
  );
}

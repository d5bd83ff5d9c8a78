import { useId, type FormEvent } from "react";
import type { FacetAttribute, FacetValue, ProductList } from "@voltio/domain/catalog";
import { focusRingClass } from "@/components/ui/focus-ring";
import { useTranslation } from "@/i18n";
import {
  facetFilterCount,
  withInStockToggled,
  withMinRating,
  withRange,
  withValueToggled,
  withoutFacets,
} from "./facet-query";

interface FacetFiltersProps {
  params: URLSearchParams;
  /** The facet reply (facets=true); without it (on its way, or refused) nothing is drawn. */
  reply: Pick<ProductList, "facets" | "facetAttributes"> | undefined;
  onChange: (next: URLSearchParams) => void;
}

const fieldClass =
  "h-11 w-full min-w-0 rounded-xl border border-line bg-surface px-3 text-sm text-ink tabular-nums placeholder:text-muted focus:border-accent focus:outline-2 focus:-outline-offset-1 focus:outline-accent";
const checkClass = "h-4 w-4 shrink-0 rounded accent-accent";

/**
 * The facet filters (issue 41 point 5): brand, each filterable attribute (a range for numbers, checkboxes for
 * the others), rating and availability, each value with how many products the other filters leave. All in
 * the URL (facet-query.ts), so a filtered page is shareable and rendered by the server.
 */
export function FacetFilters({ params, reply, onChange }: FacetFiltersProps) {
  const { t } = useTranslation();
  const facets = reply?.facets;
  if (!facets) return null;
  const attributes = reply.facetAttributes ?? [];
  const minRating = params.get("minRating");

  return (
    <div className="flex flex-col gap-7">
      <CheckboxGroup
        title={t("facets.brand")}
        values={facets.brand ?? []}
        checked={params.getAll("brand")}
        onToggle={(value) => onChange(withValueToggled(params, "brand", value))}
      />
      {attributes.map((attribute) =>
        attribute.type === "number" ? (
          <RangeFilter
            key={attribute.key}
            attribute={attribute}
            params={params}
            onApply={(min, max) => onChange(withRange(params, attribute.key, min, max))}
          />
        ) : (
          <CheckboxGroup
            key={attribute.key}
            title={attribute.label}
            values={facets[attribute.key] ?? []}
            checked={params.getAll(`spec.${attribute.key}`)}
            onToggle={(value) => onChange(withValueToggled(params, `spec.${attribute.key}`, value))}
          />
        ),
      )}
      {(facets.rating ?? []).length > 0 && (
        <div role="group" aria-label={t("facets.rating")}>
          <h3 className="mb-3 text-sm font-semibold text-ink">{t("facets.rating")}</h3>
          <div className="flex flex-col gap-1.5">
            {facets.rating!.map((entry) => {
              const pressed = minRating === entry.value;
              return (
                <button
                  key={entry.value}
                  type="button"
                  aria-pressed={pressed}
                  onClick={() => onChange(withMinRating(params, entry.value))}
                  className={`flex min-h-10 items-center justify-between gap-2 rounded-xl border px-3 text-sm transition ${focusRingClass} ${
                    pressed
                      ? "border-accent bg-accent-soft font-semibold text-accent-strong"
                      : "border-line bg-card text-ink hover:border-accent"
                  }`}
                >
                  <span>
                    <span aria-hidden className="text-amber-600 dark:text-amber-400">
                      ★{" "}
                    </span>
                    {t("facets.ratingAtLeast", { stars: entry.value })}
                  </span>
                  <span className="text-xs text-muted tabular-nums">
                    {t("facets.count", { count: entry.count })}
                  </span>
                </button>
              );
            })}
          </div>
        </div>
      )}
      {(facets.availability ?? []).some((entry) => entry.value === "inStock") && (
        <CheckboxGroup
          title={t("facets.availability")}
          values={(facets.availability ?? [])
            .filter((entry) => entry.value === "inStock")
            .map((entry) => ({ ...entry, label: t("facets.inStock") }))}
          checked={params.get("inStock") === "true" ? ["inStock"] : []}
          onToggle={() => onChange(withInStockToggled(params))}
        />
      )}
      {facetFilterCount(params) > 0 && (
        <button
          type="button"
          onClick={() => onChange(withoutFacets(params))}
          className={`self-start rounded-lg text-sm font-semibold text-accent-strong hover:underline ${focusRingClass}`}
        >
          {t("listing.clearFilters")}
        </button>
      )}
    </div>
  );
}

function CheckboxGroup({
  title,
  values,
  checked,
  onToggle,
}: {
  title: string;
  values: FacetValue[];
  checked: string[];
  onToggle: (value: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  if (values.length === 0) return null;
  return (
    <fieldset>
      <legend className="mb-3 text-sm font-semibold text-ink">{title}</legend>
      <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto">
        {values.map((entry) => {
          const inputId = `${id}-${entry.value}`;
          const on = checked.includes(entry.value);
          return (
            <li key={entry.value}>
              <label
                htmlFor={inputId}
                className={`flex min-h-9 cursor-pointer items-center gap-2.5 rounded-lg px-1 text-sm ${
                  entry.count === 0 && !on ? "text-muted" : "text-ink"
                }`}
              >
                <input
                  id={inputId}
                  type="checkbox"
                  checked={on}
                  onChange={() => onToggle(entry.value)}
                  className={checkClass}
                />
                <span className="flex-1">{entry.label}</span>
                <span className="text-xs text-muted tabular-nums">
                  {t("facets.count", { count: entry.count })}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

function RangeFilter({
  attribute,
  params,
  onApply,
}: {
  attribute: FacetAttribute;
  params: URLSearchParams;
  onApply: (min: string, max: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const min = params.get(`spec.${attribute.key}.min`) ?? "";
  const max = params.get(`spec.${attribute.key}.max`) ?? "";
  const title = attribute.unit
    ? t("facets.rangeLabel", { label: attribute.label, unit: attribute.unit })
    : attribute.label;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    onApply(String(data.get("min") ?? ""), String(data.get("max") ?? ""));
  };
  return (
    // Keyed by the URL's bounds, so back and forward refill the boxes.
    <form key={`${min}|${max}`} onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="mb-3 text-sm font-semibold text-ink">
        {title}
      </h3>
      <div className="flex items-end gap-2">
        <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-muted">
          {t("facets.min")}
          <input
            name="min"
            type="number"
            inputMode="decimal"
            step="any"
            defaultValue={min}
            placeholder={attribute.min === null ? "" : String(attribute.min)}
            aria-label={`${title} ${t("facets.min")}`}
            className={fieldClass}
          />
        </label>
        <span aria-hidden className="pb-3 text-muted">
          –
        </span>
        <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-muted">
          {t("facets.max")}
          <input
            name="max"
            type="number"
            inputMode="decimal"
            step="any"
            defaultValue={max}
            placeholder={attribute.max === null ? "" : String(attribute.max)}
            aria-label={`${title} ${t("facets.max")}`}
            className={fieldClass}
          />
        </label>
        <button
          type="submit"
          className={`h-11 shrink-0 rounded-xl bg-ink px-3 text-sm font-semibold text-surface transition hover:opacity-90 ${focusRingClass}`}
        >
          {t("facets.apply")}
        </button>
      </div>
    </form>
  );
}

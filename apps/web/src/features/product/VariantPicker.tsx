import { useId } from "react";
import type { Product, Variant } from "@voltio/domain/catalog";
import { chooseOption, isColourOption, optionValueState, variantLabel } from "@voltio/domain/variants";
import { useTranslation } from "@/i18n";

interface VariantPickerProps {
  product: Pick<Product, "options" | "variants">;
  chosen: Variant;
  /** A value picked: the page moves to this variant (chooseOption's for it). */
  onChoose: (variantId: number) => void;
  /** The chosen variant's price and stock as the page shows them: said when the choice changes. */
  price: string;
  stock: string;
}

/**
 * One group of radio buttons per option (native radios: arrow keys move between values, the group's legend
 * names it). A value no variant combines with the other choices is greyed out and one whose variants are
 * sold out is marked, in text as well as in look; both stay pickable, and picking moves to the nearest
 * variant that has the value.
 */
export function VariantPicker({ product, chosen, onChoose, price, stock }: VariantPickerProps) {
  const { t } = useTranslation();
  const baseId = useId();
  const onPick = (optionName: string, value: string) => {
    const next = chooseOption(product.variants, chosen.options, optionName, value);
    if (next) onChoose(next.id);
  };
  return (
    <div className="flex flex-col gap-4">
      <p aria-live="polite" className="sr-only">
        {t("variants.status", { variant: variantLabel(product.options, chosen.options), price, stock })}
      </p>
      {product.options.map((option, optionIndex) => {
        const colour = isColourOption(option.name);
        const current = chosen.options[option.name];
        return (
          <fieldset key={option.name}>
            <legend className="mb-2 text-sm font-semibold text-ink">
              {t("variants.chosen", { option: option.name, value: current ?? "" })}
            </legend>
            <div className="flex flex-wrap gap-2">
              {option.values.map((value) => {
                const state = optionValueState(product.variants, chosen.options, option.name, value);
                const id = `${baseId}-${optionIndex}-${value}`;
                const checked = current === value;
                const stateText =
                  state === "soldOut"
                    ? t("variants.soldOut")
                    : state === "unavailable"
                      ? t("variants.unavailable")
                      : null;
                return (
                  <label
                    key={value}
                    htmlFor={id}
                    title={stateText ?? undefined}
                    className={`relative inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border px-3 py-2 text-sm font-medium transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent ${
                      checked
                        ? "border-accent bg-accent-soft text-accent-strong ring-1 ring-accent"
                        : state === "unavailable"
                          ? "border-dashed border-line bg-surface text-muted"
                          : "border-line bg-card text-ink hover:border-accent"
                    }`}
                  >
                    <input
                      id={id}
                      type="radio"
                      name={`${baseId}-${optionIndex}`}
                      value={value}
                      checked={checked}
                      onChange={() => onPick(option.name, value)}
                      className="sr-only"
                    />
                    {colour && (
                      <span
                        aria-hidden
                        data-swatch={value.trim().toLowerCase()}
                        className="h-5 w-5 shrink-0 rounded-full border border-line shadow-inner"
                      />
                    )}
                    <span className={state === "unavailable" ? "line-through decoration-1" : ""}>
                      {value}
                    </span>
                    {state === "soldOut" && (
                      <span className="rounded-md bg-sale/10 px-1.5 py-0.5 text-[11px] font-semibold text-sale">
                        {t("variants.soldOut")}
                      </span>
                    )}
                    {state === "unavailable" && (
                      <span className="sr-only">, {t("variants.unavailable")}</span>
                    )}
                  </label>
                );
              })}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}

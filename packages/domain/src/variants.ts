/**
 * Options and variants (issue 41): a product sold in several ways (Colour × Memory) has up to MAX_OPTIONS
 * options, and one variant per combination it is sold in, each with its own SKU, price and stock. A product
 * sold one way has no options and one default variant. No zod here: the product page picks variants on its
 * first paint.
 */

export const MAX_OPTIONS = 3;
export const MAX_OPTION_VALUES = 20;

/** An option and its values, in the order shoppers see them: {name: "Colour", values: ["Black", "White"]}. */
export interface ProductOption {
  name: string;
  values: string[];
}

/** A variant's value of each option: {Colour: "Black", Memory: "16 GB"}; {} for a default variant. */
export type VariantOptions = Record<string, string>;

/** The option named "Colour" (or "Color", "Colour", "Color" in Spanish): listing cards show its swatches. */
export const COLOUR_OPTION_NAMES = ["colour", "color"];
export const isColourOption = (name: string) => COLOUR_OPTION_NAMES.includes(name.trim().toLowerCase());

/** Every combination of the options' values, in the options' order (the admin's "generate variants"). */
export function variantMatrix(options: ProductOption[]): VariantOptions[] {
  let combinations: VariantOptions[] = [{}];
  for (const option of options) {
    combinations = combinations.flatMap((combination) =>
      option.values.map((value) => ({ ...combination, [option.name]: value })),
    );
  }
  return options.length === 0 ? [{}] : combinations;
}

/** The variant's values in the options' order, "Black / 16 GB"; "" for a default variant. */
export function variantLabel(options: ProductOption[], values: VariantOptions): string {
  const names = options.length > 0 ? options.map((option) => option.name) : Object.keys(values);
  return names
    .map((name) => values[name])
    .filter((value): value is string => value !== undefined && value !== "")
    .join(" / ");
}

/** What an order line, receipt or e-mail calls it: "Logitech M720 — Black"; the title alone for a default variant. */
export function variantName(title: string, options: ProductOption[], values: VariantOptions): string {
  const label = variantLabel(options, values);
  return label === "" ? title : `${title} — ${label}`;
}

/** The same combination: {a, b} and {b, a} are one variant. */
export function sameOptions(a: VariantOptions, b: VariantOptions): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * Why these options can't be a product's, or null: at most MAX_OPTIONS, named, no name twice (whatever its
 * case), each with 1..MAX_OPTION_VALUES values, no value twice.
 */
export function optionsProblem(options: ProductOption[]): string | null {
  if (options.length > MAX_OPTIONS) return `at most ${MAX_OPTIONS} options`;
  const names = new Set<string>();
  for (const option of options) {
    const name = option.name.trim().toLowerCase();
    if (name === "") return "an option needs a name";
    if (names.has(name)) return `the option ${option.name} is named twice`;
    names.add(name);
    if (option.values.length === 0) return `the option ${option.name} needs at least one value`;
    if (option.values.length > MAX_OPTION_VALUES)
      return `the option ${option.name} has more than ${MAX_OPTION_VALUES} values`;
    const values = new Set(option.values.map((value) => value.trim().toLowerCase()));
    if (values.has("")) return `the option ${option.name} has an empty value`;
    if (values.size !== option.values.length) return `the option ${option.name} has a value twice`;
  }
  return null;
}

/** Why a variant's values don't fit the options, or null: one value of each option, and nothing else. */
export function variantOptionsProblem(options: ProductOption[], values: VariantOptions): string | null {
  const names = Object.keys(values);
  if (names.length !== options.length)
    return `needs a value of each of ${options.map((o) => o.name).join(", ")}`;
  for (const option of options) {
    const value = values[option.name];
    if (value === undefined) return `needs a value of ${option.name}`;
    if (!option.values.includes(value)) return `${value} is not a value of ${option.name}`;
  }
  return null;
}

/** The fields of a variant the storefront chooses among (the product reply's `variants`). */
export interface ChoosableVariant {
  id: number;
  options: VariantOptions;
  stock: number;
}

/**
 * The variant a product page opens on: the one asked for (the URL's), else the first with stock, else the
 * first. What a SPEC client adding a product id to the cart gets too.
 */
export function defaultVariant<V extends ChoosableVariant>(variants: V[], wanted?: number): V | undefined {
  return (
    variants.find((variant) => variant.id === wanted) ??
    variants.find((variant) => variant.stock > 0) ??
    variants[0]
  );
}

/**
 * A value's state beside the current choice of the other options: "available" (a variant with stock has
 * it), "soldOut" (only sold-out variants have it) or "unavailable" (no variant combines it with the rest).
 */
export function optionValueState(
  variants: ChoosableVariant[],
  chosen: VariantOptions,
  optionName: string,
  value: string,
): "available" | "soldOut" | "unavailable" {
  const matching = variants.filter((variant) =>
    Object.entries({ ...chosen, [optionName]: value }).every(([name, v]) => variant.options[name] === v),
  );
  if (matching.length === 0) return "unavailable";
  return matching.some((variant) => variant.stock > 0) ? "available" : "soldOut";
}

/**
 * The variant that has `value` for `optionName` and keeps as many of the other choices as it can (a
 * shopper picking "White" where White comes only in 16 GB lands on White / 16 GB).
 */
export function chooseOption<V extends ChoosableVariant>(
  variants: V[],
  chosen: VariantOptions,
  optionName: string,
  value: string,
): V | undefined {
  const candidates = variants.filter((variant) => variant.options[optionName] === value);
  const kept = (variant: V) =>
    Object.entries(chosen).filter(([name, v]) => name !== optionName && variant.options[name] === v).length;
  return candidates.sort((a, b) => kept(b) - kept(a) || +(b.stock > 0) - +(a.stock > 0))[0];
}

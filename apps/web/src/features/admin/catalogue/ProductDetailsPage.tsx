import { useId, useState, type FormEvent } from "react";
import { useParams } from "react-router";
import type { Product } from "@voltio/domain/catalog";
import { parseSpecValue } from "@voltio/domain/specs";
import { MAX_OPTIONS, sameOptions, variantMatrix, type ProductOption } from "@voltio/domain/variants";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { useProduct } from "@/api/catalog";
import { LoadError } from "@/components/LoadError";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import { Field } from "../Field";
import { useAttributes, useBrands, useSaveDetails, useSaveVariants } from "./api";

const inputClass =
  "min-h-11 w-full rounded-lg border border-line bg-surface px-3 py-2 text-ink focus-visible:outline-2 focus-visible:outline-accent";

/** The server's refusal: its field ("specs.ram_gb", "variants.2.sku") and reason, or its message. */
const fieldError = (error: unknown): { field: string; reason: string } => {
  const details =
    error instanceof ApiError
      ? (error.body as { details?: { field: string; reason: string }[] }).details
      : undefined;
  return details?.[0] ?? { field: "", reason: error instanceof Error ? error.message : String(error) };
};

/**
 * A product's brand, specifications, options and variants (issue 41, docs/product-rules.md §7.3.1): the
 * specifications of its categories' attributes, checked by type; up to 3 options whose matrix "Generate
 * variants" makes; one grid for every variant's SKU, price, stock and sale eligibility. A variant left out
 * of the grid is retired when it is saved.
 */
export default function ProductDetailsPage() {
  const { t } = useTranslation();
  const productId = Number(useParams().id);
  const product = useProduct(productId);
  if (product.isError) return <LoadError onRetry={() => void product.refetch()} />;
  if (!product.data)
    return (
      <p role="status" className="text-muted">
        {t("common.loading")}
      </p>
    );
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">
        {t("admin.catalogue.detailsOf", { title: product.data.title })}
      </h1>
      <SpecsCard key={`specs-${product.data.id}`} product={product.data} />
      <VariantsCard key={`variants-${product.data.id}`} product={product.data} />
    </div>
  );
}

function SpecsCard({ product }: { product: Product }) {
  const { t } = useTranslation();
  const id = useId();
  const brands = useBrands();
  const attributes = useAttributes(product.categories.map((category) => category.id));
  const save = useSaveDetails(product);
  const [brandId, setBrandId] = useState(product.brand?.id ?? null);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(product.specs.map((spec) => [spec.key, String(spec.value)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    for (const attribute of attributes.data ?? []) {
      const value = values[attribute.key] ?? "";
      if (value === "") continue;
      const parsed = parseSpecValue({ ...attribute, unit: attribute.unit ?? "" }, value);
      if ("problem" in parsed) found[attribute.key] = parsed.problem;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    const specs = Object.fromEntries(
      (attributes.data ?? []).map((attribute) => [attribute.key, values[attribute.key] || null]),
    );
    save.mutate(
      { brandId, specs },
      {
        onSuccess: () => showToast(t("admin.catalogue.saved")),
        onError: (error) => {
          const { field, reason } = fieldError(error);
          if (field.startsWith("specs.")) setErrors({ [field.slice(6)]: reason });
          else showToast(reason, "error");
        },
      },
    );
  };
  return (
    <Card as="section" size="lg" aria-labelledby={`${id}-title`} className="p-4 sm:p-6">
      <h2 id={`${id}-title`} className="mb-4 text-lg font-semibold text-ink">
        {t("admin.catalogue.specifications")}
      </h2>
      <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-brand`} label={t("admin.catalogue.brand")}>
          <select
            id={`${id}-brand`}
            className={inputClass}
            value={brandId ?? ""}
            onChange={(event) => setBrandId(event.target.value ? Number(event.target.value) : null)}
          >
            <option value="">{t("admin.catalogue.noBrand")}</option>
            {brands.data?.map((brand) => (
              <option key={brand.id} value={brand.id}>
                {brand.name}
              </option>
            ))}
          </select>
        </Field>
        {attributes.data?.map((attribute) => {
          const field = `${id}-${attribute.key}`;
          const label = attribute.unit ? `${attribute.label} (${attribute.unit})` : attribute.label;
          const error = errors[attribute.key];
          const common = {
            id: field,
            className: inputClass,
            value: values[attribute.key] ?? "",
            "aria-invalid": error ? true : undefined,
            "aria-describedby": error ? `${field}-error` : undefined,
            onChange: (event: { target: { value: string } }) =>
              setValues((current) => ({ ...current, [attribute.key]: event.target.value })),
          };
          return (
            <Field key={attribute.id} id={field} label={label} error={error}>
              {attribute.type === "enum" ? (
                <select {...common}>
                  <option value="">—</option>
                  {attribute.enumValues.map((value) => (
                    <option key={value}>{value}</option>
                  ))}
                </select>
              ) : (
                <input {...common} inputMode={attribute.type === "number" ? "decimal" : undefined} />
              )}
            </Field>
          );
        })}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={save.isPending}>
            {t("admin.catalogue.saveSpecs")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

interface GridRow {
  id?: number;
  sku: string;
  options: Record<string, string>;
  price: string;
  stock: string;
  saleEligible: boolean;
}

const rowsOf = (product: Product): GridRow[] =>
  product.variants.map((variant) => ({
    id: variant.id,
    sku: variant.sku,
    options: variant.options,
    price: variant.price.toFixed(2),
    stock: String(variant.stock),
    saleEligible: variant.saleEligible,
  }));

function VariantsCard({ product }: { product: Product }) {
  const { t } = useTranslation();
  const id = useId();
  const save = useSaveVariants(product.id);
  const [options, setOptions] = useState<{ name: string; values: string }[]>(() =>
    product.options.map((option) => ({ name: option.name, values: option.values.join(", ") })),
  );
  const [rows, setRows] = useState<GridRow[]>(() => rowsOf(product));
  const [error, setError] = useState<{ field: string; reason: string }>();
  const parsedOptions = (): ProductOption[] =>
    options
      .filter((option) => option.name.trim() !== "")
      .map((option) => ({
        name: option.name.trim(),
        values: option.values
          .split(",")
          .map((value) => value.trim())
          .filter(Boolean),
      }));
  const generate = () => {
    const matrix = variantMatrix(parsedOptions());
    setRows(
      matrix.map(
        (combination, index) =>
          rows.find((row) => sameOptions(row.options, combination)) ?? {
            sku: `P${product.id}-${index + 1}`,
            options: combination,
            price: product.price.toFixed(2),
            stock: "0",
            saleEligible: true,
          },
      ),
    );
  };
  const change = (index: number, next: Partial<GridRow>) =>
    setRows((current) => current.map((row, at) => (at === index ? { ...row, ...next } : row)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    save.mutate(
      {
        options: parsedOptions(),
        variants: rows.map((row) => ({ ...row, price: Number(row.price), stock: Number(row.stock) })),
      },
      {
        onSuccess: (saved) => {
          setRows(rowsOf(saved as Product));
          showToast(t("admin.catalogue.saved"));
        },
        onError: (failure) => setError(fieldError(failure)),
      },
    );
  };
  const errorOf = (index: number, column: string) =>
    error?.field === `variants.${index}.${column}` ? error.reason : undefined;
  return (
    <Card as="section" size="lg" aria-labelledby={`${id}-title`} className="p-4 sm:p-6">
      <h2 id={`${id}-title`} className="mb-4 text-lg font-semibold text-ink">
        {t("admin.catalogue.variants")}
      </h2>
      <form onSubmit={submit} className="flex flex-col gap-4">
        <fieldset className="flex flex-col gap-3">
          <legend className="text-sm font-medium text-ink">{t("admin.catalogue.options")}</legend>
          {options.map((option, index) => (
            <div key={index} className="grid gap-3 sm:grid-cols-[12rem_1fr]">
              <Field
                small
                id={`${id}-option-${index}`}
                label={t("admin.catalogue.optionName", { n: index + 1 })}
              >
                <input
                  id={`${id}-option-${index}`}
                  className={inputClass}
                  value={option.name}
                  onChange={(event) =>
                    setOptions((current) =>
                      current.map((o, at) => (at === index ? { ...o, name: event.target.value } : o)),
                    )
                  }
                />
              </Field>
              <Field
                small
                id={`${id}-values-${index}`}
                label={t("admin.catalogue.optionValues", { n: index + 1 })}
              >
                <input
                  id={`${id}-values-${index}`}
                  className={inputClass}
                  value={option.values}
                  onChange={(event) =>
                    setOptions((current) =>
                      current.map((o, at) => (at === index ? { ...o, values: event.target.value } : o)),
                    )
                  }
                />
              </Field>
            </div>
          ))}
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="secondary"
              disabled={options.length >= MAX_OPTIONS}
              onClick={() => setOptions((current) => [...current, { name: "", values: "" }])}
            >
              {t("admin.catalogue.addOption")}
            </Button>
            <Button type="button" variant="secondary" onClick={generate}>
              {t("admin.catalogue.generate")}
            </Button>
          </div>
          {error?.field === "options" && (
            <p role="alert" className="text-sm font-semibold text-sale">
              {error.reason}
            </p>
          )}
        </fieldset>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <caption className="sr-only">{t("admin.catalogue.variants")}</caption>
            <thead className="text-muted">
              <tr>
                <th scope="col">{t("admin.catalogue.variant")}</th>
                <th scope="col">SKU</th>
                <th scope="col">{t("admin.catalogue.price")}</th>
                <th scope="col">{t("admin.catalogue.stock")}</th>
                <th scope="col">{t("admin.catalogue.onSale")}</th>
                <th scope="col">
                  <span className="sr-only">{t("admin.catalogue.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const name = Object.values(row.options).join(" / ") || t("admin.catalogue.defaultVariant");
                const cell = (column: "sku" | "price" | "stock") => {
                  const problem = errorOf(index, column);
                  const problemId = `${id}-variant-${index}-${column}-error`;
                  return (
                    <td className="py-1 pr-2">
                      <input
                        aria-label={`${t(`admin.catalogue.${column === "sku" ? "sku" : column}`)} — ${name}`}
                        className={inputClass}
                        value={row[column]}
                        inputMode={column === "sku" ? undefined : "decimal"}
                        aria-invalid={problem ? true : undefined}
                        aria-describedby={problem ? problemId : undefined}
                        onChange={(event) => change(index, { [column]: event.target.value })}
                      />
                      {problem && (
                        <span id={problemId} className="text-xs font-semibold text-sale">
                          {problem}
                        </span>
                      )}
                    </td>
                  );
                };
                return (
                  <tr key={row.id ?? `new-${name}`} className="border-t border-line">
                    <th scope="row" className="py-1 pr-2 font-medium text-ink">
                      {name}
                      {errorOf(index, "options") && (
                        <span className="block text-xs font-semibold text-sale">
                          {errorOf(index, "options")}
                        </span>
                      )}
                    </th>
                    {cell("sku")}
                    {cell("price")}
                    {cell("stock")}
                    <td>
                      <input
                        type="checkbox"
                        className="h-5 w-5"
                        aria-label={`${t("admin.catalogue.onSale")} — ${name}`}
                        checked={row.saleEligible}
                        onChange={(event) => change(index, { saleEligible: event.target.checked })}
                      />
                    </td>
                    <td className="text-right">
                      <Button
                        type="button"
                        size="sm"
                        variant="secondary"
                        disabled={rows.length === 1}
                        onClick={() => setRows((current) => current.filter((_, at) => at !== index))}
                      >
                        {t("admin.catalogue.retire")}
                        <span className="sr-only"> {name}</span>
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {error && !error.field.startsWith("variants.") && error.field !== "options" && (
          <p role="alert" className="text-sm font-semibold text-sale">
            {error.reason}
          </p>
        )}
        <div>
          <Button type="submit" disabled={save.isPending}>
            {t("admin.catalogue.saveVariants")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

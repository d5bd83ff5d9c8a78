import { useId, useState, type FormEvent } from "react";
import { Trash2 } from "lucide-react";
import { ATTRIBUTE_TYPES, type AttributeType } from "@voltio/domain/specs";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { useCategories } from "@/api/catalog";
import { LoadError } from "@/components/LoadError";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { IconButton } from "@/components/ui/IconButton";
import { showToast } from "@/components/ui/toast";
import { Field } from "../Field";
import {
  useAttributes,
  useBrands,
  useCreateAttribute,
  useCreateBrand,
  useDeleteAttribute,
  useDeleteBrand,
  useExportProducts,
  useImportProducts,
  type ImportOutcome,
} from "./api";

const inputClass =
  "min-h-11 rounded-lg border border-line bg-surface px-3 py-2 text-ink focus-visible:outline-2 focus-visible:outline-accent";

const refusal = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

/**
 * The catalogue's structure (issue 41, docs/product-rules.md §7.3.1): brands, the attributes each category's
 * products are specified by, and the products as CSV.
 */
export default function CataloguePage() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t("admin.catalogue.title")}</h1>
      <BrandsCard />
      <AttributesCard />
      <CsvCard />
    </div>
  );
}

function BrandsCard() {
  const { t } = useTranslation();
  const id = useId();
  const brands = useBrands();
  const create = useCreateBrand();
  const remove = useDeleteBrand();
  const [name, setName] = useState("");
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    create.mutate(
      { name },
      {
        onSuccess: () => {
          setName("");
          showToast(t("admin.catalogue.brandCreated"));
        },
        onError: (failure) => setError(refusal(failure)),
      },
    );
  };
  return (
    <Card as="section" size="lg" aria-labelledby={`${id}-title`} className="flex flex-col gap-4 p-4 sm:p-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-ink">
        {t("admin.catalogue.brands")}
      </h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <Field id={`${id}-name`} label={t("admin.catalogue.brandName")} error={error}>
          <input
            id={`${id}-name`}
            className={inputClass}
            value={name}
            required
            maxLength={100}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-name-error` : undefined}
            onChange={(event) => setName(event.target.value)}
          />
        </Field>
        <Button type="submit" disabled={create.isPending}>
          {t("admin.catalogue.addBrand")}
        </Button>
      </form>
      {brands.isError ? (
        <LoadError onRetry={() => void brands.refetch()} />
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t("admin.catalogue.brands")}</caption>
          <thead className="text-muted">
            <tr>
              <th scope="col">{t("admin.catalogue.brandName")}</th>
              <th scope="col">{t("admin.catalogue.slug")}</th>
              <th scope="col">{t("admin.catalogue.products")}</th>
              <th scope="col">
                <span className="sr-only">{t("admin.catalogue.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {brands.data?.map((brand) => (
              <tr key={brand.id} className="border-t border-line">
                <td className="py-1 text-ink">{brand.name}</td>
                <td className="text-muted">{brand.slug}</td>
                <td className="tabular-nums">{brand.productCount}</td>
                <td className="text-right">
                  <IconButton
                    size="sm"
                    label={t("admin.catalogue.deleteBrand", { name: brand.name })}
                    icon={<Trash2 size={16} aria-hidden />}
                    onClick={() =>
                      remove.mutate(brand.id, {
                        onSuccess: () => showToast(t("admin.catalogue.deleted")),
                        onError: (failure) => showToast(refusal(failure), "error"),
                      })
                    }
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function AttributesCard() {
  const { t } = useTranslation();
  const id = useId();
  const categories = useCategories();
  const [categoryId, setCategoryId] = useState<number>();
  const attributes = useAttributes(categoryId === undefined ? [] : [categoryId]);
  const create = useCreateAttribute();
  const remove = useDeleteAttribute();
  const [draft, setDraft] = useState({
    key: "",
    label: "",
    type: "number" as AttributeType,
    unit: "",
    values: "",
  });
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (categoryId === undefined) return;
    setError(undefined);
    create.mutate(
      {
        categoryId,
        key: draft.key,
        label: draft.label,
        type: draft.type,
        unit: draft.unit || null,
        enumValues:
          draft.type === "enum"
            ? draft.values
                .split(",")
                .map((value) => value.trim())
                .filter(Boolean)
            : [],
        filterable: true,
        betterWhen: null,
        position: attributes.data?.length ?? 0,
      },
      {
        onSuccess: () => {
          setDraft({ key: "", label: "", type: "number", unit: "", values: "" });
          showToast(t("admin.catalogue.attributeCreated"));
        },
        onError: (failure) => setError(refusal(failure)),
      },
    );
  };
  const set = (field: keyof typeof draft) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [field]: event.target.value }));
  return (
    <Card as="section" size="lg" aria-labelledby={`${id}-title`} className="flex flex-col gap-4 p-4 sm:p-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-ink">
        {t("admin.catalogue.attributes")}
      </h2>
      <Field id={`${id}-category`} label={t("admin.catalogue.category")}>
        <select
          id={`${id}-category`}
          className={inputClass}
          value={categoryId ?? ""}
          onChange={(event) => setCategoryId(event.target.value ? Number(event.target.value) : undefined)}
        >
          <option value="">{t("admin.catalogue.chooseCategory")}</option>
          {categories.data?.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </select>
      </Field>
      {categoryId !== undefined && (
        <>
          <ul className="flex flex-col gap-1 text-sm" aria-label={t("admin.catalogue.attributes")}>
            {attributes.data?.map((attribute) => (
              <li
                key={attribute.id}
                className="flex items-center justify-between gap-2 border-t border-line py-1"
              >
                <span className="text-ink">
                  {attribute.label}{" "}
                  <span className="text-muted">
                    ({attribute.key}, {attribute.type}
                    {attribute.unit ? `, ${attribute.unit}` : ""}
                    {attribute.enumValues.length ? `: ${attribute.enumValues.join(", ")}` : ""})
                  </span>
                </span>
                <IconButton
                  size="sm"
                  label={t("admin.catalogue.deleteAttribute", { name: attribute.label })}
                  icon={<Trash2 size={16} aria-hidden />}
                  onClick={() => remove.mutate(attribute.id)}
                />
              </li>
            ))}
          </ul>
          <form
            onSubmit={submit}
            className="grid gap-3 sm:grid-cols-3"
            aria-label={t("admin.catalogue.addAttribute")}
          >
            <Field id={`${id}-key`} label={t("admin.catalogue.key")} hint={t("admin.catalogue.keyHint")}>
              <input
                id={`${id}-key`}
                aria-describedby={`${id}-key-hint`}
                className={inputClass}
                value={draft.key}
                required
                onChange={set("key")}
              />
            </Field>
            <Field id={`${id}-label`} label={t("admin.catalogue.label")}>
              <input
                id={`${id}-label`}
                className={inputClass}
                value={draft.label}
                required
                onChange={set("label")}
              />
            </Field>
            <Field id={`${id}-type`} label={t("admin.catalogue.type")}>
              <select id={`${id}-type`} className={inputClass} value={draft.type} onChange={set("type")}>
                {ATTRIBUTE_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`admin.catalogue.types.${type}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={`${id}-unit`} label={t("admin.catalogue.unit")}>
              <input id={`${id}-unit`} className={inputClass} value={draft.unit} onChange={set("unit")} />
            </Field>
            {draft.type === "enum" && (
              <Field
                id={`${id}-values`}
                label={t("admin.catalogue.values")}
                hint={t("admin.catalogue.valuesHint")}
              >
                <input
                  id={`${id}-values`}
                  aria-describedby={`${id}-values-hint`}
                  className={inputClass}
                  value={draft.values}
                  onChange={set("values")}
                />
              </Field>
            )}
            <div className="flex items-end">
              <Button type="submit" disabled={create.isPending}>
                {t("admin.catalogue.addAttribute")}
              </Button>
            </div>
            {error && (
              <p role="alert" className="text-sm font-semibold text-sale sm:col-span-3">
                {error}
              </p>
            )}
          </form>
        </>
      )}
    </Card>
  );
}

function CsvCard() {
  const { t } = useTranslation();
  const id = useId();
  const exporting = useExportProducts();
  const importing = useImportProducts();
  const [outcome, setOutcome] = useState<ImportOutcome>();
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setOutcome(undefined);
    importing.mutate(await file.text(), {
      onSuccess: (result) => setOutcome(result),
      onError: (failure) => showToast(refusal(failure), "error"),
    });
  };
  return (
    <Card as="section" size="lg" aria-labelledby={`${id}-title`} className="flex flex-col gap-4 p-4 sm:p-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-ink">
        {t("admin.catalogue.csv")}
      </h2>
      <p className="text-sm text-muted">{t("admin.catalogue.csvHint")}</p>
      <div className="flex flex-wrap items-end gap-3">
        <Button variant="secondary" onClick={() => exporting.mutate()} disabled={exporting.isPending}>
          {t("admin.catalogue.export")}
        </Button>
        <Field id={`${id}-file`} label={t("admin.catalogue.import")}>
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,text/csv"
            className="text-sm text-ink"
            disabled={importing.isPending}
            onChange={(event) => void pick(event.target.files?.[0])}
          />
        </Field>
      </div>
      <div role="status" aria-live="polite">
        {outcome && "created" in outcome && (
          <p className="text-sm font-semibold text-ink">
            {t("admin.catalogue.imported", { created: outcome.created, updated: outcome.updated })}
          </p>
        )}
        {outcome && "errors" in outcome && (
          <div>
            <p className="text-sm font-semibold text-sale">{outcome.message}</p>
            <ul className="mt-2 list-disc pl-5 text-sm text-ink">
              {outcome.errors.map((problem, index) => (
                <li key={index}>
                  {t("admin.catalogue.problem", {
                    line: problem.line,
                    field: problem.field || "—",
                    reason: problem.reason,
                  })}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </Card>
  );
}

import { useId, useState, type FormEvent } from "react";
import { Pencil, Trash2 } from "lucide-react";
import type { Attribute, Brand } from "@voltio/domain/catalog-structure";
import { ATTRIBUTE_TYPES, BETTER_WHEN, type AttributeType } from "@voltio/domain/specs";
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
  useUpdateAttribute,
  useUpdateBrand,
  useExportProducts,
  useImportProducts,
  type ImportOutcome,
} from "./api";
import {
  attributeInputOf,
  draftOfAttribute,
  emptyAttributeDraft,
  type AttributeDraft,
} from "./attribute-draft";

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

/** The server's refusal: the field it names ("slug", "enumValues") and its reason, or its message. */
const refusalOf = (error: unknown): { field: string; reason: string } => {
  const details =
    error instanceof ApiError
      ? (error.body as { details?: { field: string; reason: string }[] } | null)?.details
      : undefined;
  return details?.[0] ?? { field: "", reason: refusal(error) };
};

const EMPTY_BRAND = { name: "", slug: "", logo: "" };

function BrandsCard() {
  const { t } = useTranslation();
  const id = useId();
  const brands = useBrands();
  const create = useCreateBrand();
  const update = useUpdateBrand();
  const remove = useDeleteBrand();
  const [editing, setEditing] = useState<Brand>();
  const [draft, setDraft] = useState(EMPTY_BRAND);
  const [error, setError] = useState<{ field: string; reason: string }>();
  const errorOf = (field: string) =>
    error && (error.field === field || (field === "name" && !["slug", "logo"].includes(error.field)))
      ? error.reason
      : undefined;
  const startEdit = (brand: Brand) => {
    setEditing(brand);
    setError(undefined);
    setDraft({ name: brand.name, slug: brand.slug, logo: brand.logo ?? "" });
    document.getElementById(`${id}-name`)?.focus();
  };
  const reset = () => {
    setEditing(undefined);
    setDraft(EMPTY_BRAND);
    setError(undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    // An empty slug is made from the name by the server.
    const input = { name: draft.name, slug: draft.slug.trim() || undefined, logo: draft.logo.trim() || null };
    const done = {
      onSuccess: () => {
        showToast(t(editing ? "admin.catalogue.brandSaved" : "admin.catalogue.brandCreated"));
        reset();
      },
      onError: (failure: unknown) => setError(refusalOf(failure)),
    };
    if (editing) update.mutate({ id: editing.id, ...input }, done);
    else create.mutate(input, done);
  };
  const input = (field: keyof typeof EMPTY_BRAND, props: { required?: boolean; maxLength: number }) => {
    const fieldId = `${id}-${field}`;
    const problem = errorOf(field);
    const hint = field === "name" ? undefined : `${fieldId}-hint`;
    return (
      <input
        id={fieldId}
        className={inputClass}
        value={draft[field]}
        {...props}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${fieldId}-error` : hint}
        onChange={(event) => setDraft((current) => ({ ...current, [field]: event.target.value }))}
      />
    );
  };
  return (
    <Card as="section" size="lg" aria-labelledby={`${id}-title`} className="flex flex-col gap-4 p-4 sm:p-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-ink">
        {t("admin.catalogue.brands")}
      </h2>
      <form
        onSubmit={submit}
        className="grid gap-3 sm:grid-cols-[1fr_1fr_1.5fr_auto] sm:items-start"
        aria-label={
          editing ? t("admin.catalogue.editBrandOf", { name: editing.name }) : t("admin.catalogue.addBrand")
        }
      >
        <Field id={`${id}-name`} label={t("admin.catalogue.brandName")} error={errorOf("name")}>
          {input("name", { required: true, maxLength: 100 })}
        </Field>
        <Field
          id={`${id}-slug`}
          label={t("admin.catalogue.slug")}
          hint={t("admin.catalogue.slugHint")}
          error={errorOf("slug")}
        >
          {input("slug", { maxLength: 60 })}
        </Field>
        <Field
          id={`${id}-logo`}
          label={t("admin.catalogue.logo")}
          hint={t("admin.catalogue.logoHint")}
          error={errorOf("logo")}
        >
          {input("logo", { maxLength: 2000 })}
        </Field>
        <div className="flex gap-2 sm:pt-6">
          <Button type="submit" disabled={create.isPending || update.isPending}>
            {editing ? t("admin.catalogue.saveBrand") : t("admin.catalogue.addBrand")}
          </Button>
          {editing && (
            <Button type="button" variant="ghost" onClick={reset}>
              {t("admin.catalogue.cancel")}
            </Button>
          )}
        </div>
      </form>
      {brands.isError ? (
        <LoadError onRetry={() => void brands.refetch()} />
      ) : (
        <div className="overflow-x-auto">
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
                  <td className="py-1 text-ink">
                    <span className="flex items-center gap-2">
                      {brand.logo && (
                        <img
                          src={brand.logo}
                          alt=""
                          width={24}
                          height={24}
                          className="h-6 w-6 object-contain"
                        />
                      )}
                      {brand.name}
                    </span>
                  </td>
                  <td className="text-muted">{brand.slug}</td>
                  <td className="tabular-nums">{brand.productCount}</td>
                  <td>
                    <div className="flex justify-end gap-1">
                      <IconButton
                        size="sm"
                        label={t("admin.catalogue.editBrandOf", { name: brand.name })}
                        icon={<Pencil size={16} aria-hidden />}
                        onClick={() => startEdit(brand)}
                      />
                      <IconButton
                        size="sm"
                        label={t("admin.catalogue.deleteBrand", { name: brand.name })}
                        icon={<Trash2 size={16} aria-hidden />}
                        onClick={() =>
                          remove.mutate(brand.id, {
                            onSuccess: () => showToast(t("admin.catalogue.deleted")),
                            // 409 while products use it: the server's message says so.
                            onError: (failure) => showToast(refusal(failure), "error"),
                          })
                        }
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
  const update = useUpdateAttribute();
  const remove = useDeleteAttribute();
  const [editing, setEditing] = useState<Attribute>();
  const [draft, setDraft] = useState<AttributeDraft>(() => emptyAttributeDraft(0));
  const [error, setError] = useState<{ field: string; reason: string }>();
  const reset = (position = attributes.data?.length ?? 0) => {
    setEditing(undefined);
    setDraft(emptyAttributeDraft(position));
    setError(undefined);
  };
  const startEdit = (attribute: Attribute) => {
    setEditing(attribute);
    setError(undefined);
    setDraft(draftOfAttribute(attribute));
    document.getElementById(`${id}-key`)?.focus();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (categoryId === undefined) return;
    setError(undefined);
    const input = attributeInputOf(categoryId, draft);
    const done = {
      onSuccess: () => {
        showToast(t(editing ? "admin.catalogue.attributeSaved" : "admin.catalogue.attributeCreated"));
        reset((attributes.data?.length ?? 0) + (editing ? 0 : 1));
      },
      onError: (failure: unknown) => setError(refusalOf(failure)),
    };
    if (editing) update.mutate({ id: editing.id, ...input }, done);
    else create.mutate(input, done);
  };
  const FIELDS = ["key", "label", "type", "unit", "enumValues", "filterable", "betterWhen", "position"];
  const errorOf = (field: string) =>
    error && (error.field === field || (field === "key" && !FIELDS.includes(error.field)))
      ? error.reason
      : undefined;
  /** The control's description: its error when it has one, else its hint. */
  const describedBy = (field: string, fieldId: string, hint?: boolean) =>
    errorOf(field) ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined;
  const set =
    (field: "key" | "label" | "unit" | "values" | "position") => (event: { target: { value: string } }) =>
      setDraft((current) => ({ ...current, [field]: event.target.value }));
  return (
    <Card as="section" size="lg" aria-labelledby={`${id}-title`} className="flex flex-col gap-4 p-4 sm:p-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-ink">
        {t("admin.catalogue.attributes")}
      </h2>
      <Field id={`${id}-category`} label={t("admin.catalogue.category")}>
        <select
          id={`${id}-category`}
          className={`${inputClass} sm:max-w-sm`}
          value={categoryId ?? ""}
          onChange={(event) => {
            setCategoryId(event.target.value ? Number(event.target.value) : undefined);
            reset(0);
          }}
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
          {attributes.data?.length === 0 ? (
            <p className="text-sm text-muted">{t("admin.catalogue.noAttributes")}</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t("admin.catalogue.attributes")}</caption>
                <thead className="text-muted">
                  <tr>
                    <th scope="col">{t("admin.catalogue.label")}</th>
                    <th scope="col">{t("admin.catalogue.key")}</th>
                    <th scope="col">{t("admin.catalogue.type")}</th>
                    <th scope="col">{t("admin.catalogue.unit")}</th>
                    <th scope="col">{t("admin.catalogue.filterable")}</th>
                    <th scope="col">{t("admin.catalogue.betterWhen")}</th>
                    <th scope="col">{t("admin.catalogue.position")}</th>
                    <th scope="col">
                      <span className="sr-only">{t("admin.catalogue.actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {attributes.data?.map((attribute) => (
                    <tr key={attribute.id} className="border-t border-line">
                      <th scope="row" className="py-1 pr-2 font-medium text-ink">
                        {attribute.label}
                      </th>
                      <td className="pr-2 text-muted">{attribute.key}</td>
                      <td className="pr-2">
                        {t(`admin.catalogue.types.${attribute.type}`)}
                        {attribute.enumValues.length > 0 && (
                          <span className="block text-xs text-muted">{attribute.enumValues.join(", ")}</span>
                        )}
                      </td>
                      <td className="pr-2">{attribute.unit ?? "—"}</td>
                      <td className="pr-2">
                        {t(attribute.filterable ? "admin.catalogue.yes" : "admin.catalogue.no")}
                      </td>
                      <td className="pr-2">
                        {attribute.betterWhen ? t(`admin.catalogue.better.${attribute.betterWhen}`) : "—"}
                      </td>
                      <td className="pr-2 tabular-nums">{attribute.position}</td>
                      <td>
                        <div className="flex justify-end gap-1">
                          <IconButton
                            size="sm"
                            label={t("admin.catalogue.editAttributeOf", { name: attribute.label })}
                            icon={<Pencil size={16} aria-hidden />}
                            onClick={() => startEdit(attribute)}
                          />
                          <IconButton
                            size="sm"
                            label={t("admin.catalogue.deleteAttribute", { name: attribute.label })}
                            icon={<Trash2 size={16} aria-hidden />}
                            onClick={() =>
                              remove.mutate(attribute.id, {
                                onSuccess: () => showToast(t("admin.catalogue.deleted")),
                                onError: (failure) => showToast(refusal(failure), "error"),
                              })
                            }
                          />
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <form
            onSubmit={submit}
            className="grid gap-3 sm:grid-cols-3"
            aria-label={
              editing
                ? t("admin.catalogue.editAttributeOf", { name: editing.label })
                : t("admin.catalogue.addAttribute")
            }
          >
            <Field
              id={`${id}-key`}
              label={t("admin.catalogue.key")}
              hint={t("admin.catalogue.keyHint")}
              error={errorOf("key")}
            >
              <input
                id={`${id}-key`}
                aria-describedby={describedBy("key", `${id}-key`, true)}
                aria-invalid={errorOf("key") ? true : undefined}
                className={inputClass}
                value={draft.key}
                required
                maxLength={40}
                onChange={set("key")}
              />
            </Field>
            <Field id={`${id}-label`} label={t("admin.catalogue.label")} error={errorOf("label")}>
              <input
                id={`${id}-label`}
                aria-describedby={describedBy("label", `${id}-label`)}
                aria-invalid={errorOf("label") ? true : undefined}
                className={inputClass}
                value={draft.label}
                required
                maxLength={100}
                onChange={set("label")}
              />
            </Field>
            <Field id={`${id}-type`} label={t("admin.catalogue.type")} error={errorOf("type")}>
              <select
                id={`${id}-type`}
                aria-describedby={describedBy("type", `${id}-type`)}
                className={inputClass}
                value={draft.type}
                onChange={(event) =>
                  setDraft((current) => ({ ...current, type: event.target.value as AttributeType }))
                }
              >
                {ATTRIBUTE_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`admin.catalogue.types.${type}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={`${id}-unit`} label={t("admin.catalogue.unit")} error={errorOf("unit")}>
              <input
                id={`${id}-unit`}
                aria-describedby={describedBy("unit", `${id}-unit`)}
                aria-invalid={errorOf("unit") ? true : undefined}
                className={inputClass}
                value={draft.unit}
                maxLength={20}
                onChange={set("unit")}
              />
            </Field>
            {draft.type === "enum" && (
              <Field
                id={`${id}-values`}
                label={t("admin.catalogue.values")}
                hint={t("admin.catalogue.valuesHint")}
                error={errorOf("enumValues")}
              >
                <input
                  id={`${id}-values`}
                  aria-describedby={describedBy("enumValues", `${id}-values`, true)}
                  aria-invalid={errorOf("enumValues") ? true : undefined}
                  className={inputClass}
                  value={draft.values}
                  required
                  onChange={set("values")}
                />
              </Field>
            )}
            {draft.type === "number" && (
              <Field
                id={`${id}-better`}
                label={t("admin.catalogue.betterWhen")}
                hint={t("admin.catalogue.betterWhenHint")}
                error={errorOf("betterWhen")}
              >
                <select
                  id={`${id}-better`}
                  aria-describedby={describedBy("betterWhen", `${id}-better`, true)}
                  className={inputClass}
                  value={draft.betterWhen}
                  onChange={(event) =>
                    setDraft((current) => ({
                      ...current,
                      betterWhen: event.target.value as AttributeDraft["betterWhen"],
                    }))
                  }
                >
                  <option value="">{t("admin.catalogue.better.none")}</option>
                  {BETTER_WHEN.map((better) => (
                    <option key={better} value={better}>
                      {t(`admin.catalogue.better.${better}`)}
                    </option>
                  ))}
                </select>
              </Field>
            )}
            <Field id={`${id}-position`} label={t("admin.catalogue.position")} error={errorOf("position")}>
              <input
                id={`${id}-position`}
                aria-describedby={describedBy("position", `${id}-position`)}
                aria-invalid={errorOf("position") ? true : undefined}
                className={inputClass}
                inputMode="numeric"
                value={draft.position}
                onChange={set("position")}
              />
            </Field>
            <div className="flex min-h-11 items-center gap-2 sm:pt-6">
              <input
                id={`${id}-filterable`}
                type="checkbox"
                className="h-5 w-5 accent-accent"
                checked={draft.filterable}
                aria-describedby={`${id}-filterable-hint`}
                onChange={(event) =>
                  setDraft((current) => ({ ...current, filterable: event.target.checked }))
                }
              />
              <label htmlFor={`${id}-filterable`} className="text-sm text-ink">
                {t("admin.catalogue.filterable")}
                <span id={`${id}-filterable-hint`} className="block text-xs text-muted">
                  {t("admin.catalogue.filterableHint")}
                </span>
              </label>
            </div>
            <div className="flex items-end gap-2 sm:col-span-3">
              <Button type="submit" disabled={create.isPending || update.isPending}>
                {editing ? t("admin.catalogue.saveAttribute") : t("admin.catalogue.addAttribute")}
              </Button>
              {editing && (
                <Button type="button" variant="ghost" onClick={() => reset()}>
                  {t("admin.catalogue.cancel")}
                </Button>
              )}
            </div>
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

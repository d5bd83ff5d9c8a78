import { useId, useRef, useState, type ChangeEvent, type FormEvent, type RefObject } from "react";
import { CircleAlert, ImagePlus, LoaderCircle, Percent, X } from "lucide-react";
import { useTranslation } from "@/i18n";
import { SALE_DAY_NAMES } from "@voltio/domain/weekday";
import { useCategories } from "@/api/catalog";
import { ApiError } from "@/api/client";
import { Button } from "@/components/ui/Button";
import { IconButton } from "@/components/ui/IconButton";
import { showToast } from "@/components/ui/toast";
import { Field } from "../Field";
import { useBinderProducts, useUploadSaleImage } from "./api";
import { Binder } from "./Binder";
import { ruleText, type FieldErrors, type SaleDraft, type SaleField } from "./draft";

const ACCEPT = "image/jpeg,image/png,image/webp,image/gif,image/avif";

/** A reply the server refused: its message and the field and reason of each problem, as they came. */
export interface ServerProblem {
  error: string;
  details: { field: string; reason: string }[];
}

interface SaleFormProps {
  draft: SaleDraft;
  onChange: (change: Partial<SaleDraft>) => void;
  /** The failed rules, shown beside their fields once a submit was tried. */
  errors: FieldErrors;
  /** Set when a submit found the form invalid: the alert shows. */
  invalid: boolean;
  server: ServerProblem | null;
  busy: boolean;
  onSubmit: () => void;
  /** Leaves edit mode: the form empties for a new sale. */
  onClear: () => void;
  descriptionRef: RefObject<HTMLInputElement | null>;
}

const inputClass = (error?: string, width = "w-full") =>
  `${width} rounded-xl border bg-surface px-3 text-sm text-ink placeholder:text-muted focus:outline-2 focus:-outline-offset-1 ${error ? "border-sale focus:outline-sale" : "border-line focus:border-accent focus:outline-accent"}`;

/**
 * The sales form (docs/product-rules.md §1 Admin discounts, §9 Sale): description, percentage, 'Requires more than one?'
 * with 'How many?', the day, the categories and products binders and the image; 'Create new sale' or, for a
 * sale picked in the list, 'Save changes'.
 */
export function SaleForm({
  draft,
  onChange,
  errors,
  invalid,
  server,
  busy,
  onSubmit,
  onClear,
  descriptionRef,
}: SaleFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const categories = useCategories();
  const products = useBinderProducts();
  const editing = draft.id !== null;
  const error = (field: SaleField) => (errors[field] ? ruleText(t, errors[field]) : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      className="@container flex flex-col gap-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold break-words text-ink">
          {editing
            ? t("admin.sales.form.editTitle", { description: draft.description })
            : t("admin.sales.form.newTitle")}
        </h2>
        {editing && (
          <Button variant="secondary" size="md" onClick={onClear}>
            <X size={16} aria-hidden />
            {t("admin.sales.form.stopEditing")}
          </Button>
        )}
      </div>

      <div className="grid gap-4 @lg:grid-cols-[1fr_10rem]">
        <Field
          id={`${id}-description`}
          label={t("admin.sales.form.description")}
          hint={error("description") ? undefined : t("admin.sales.form.descriptionHint")}
          error={error("description")}
        >
          <input
            ref={descriptionRef}
            id={`${id}-description`}
            value={draft.description}
            onChange={(event) => onChange({ description: event.target.value })}
            maxLength={200}
            autoComplete="off"
            aria-invalid={error("description") ? true : undefined}
            aria-describedby={error("description") ? `${id}-description-error` : `${id}-description-hint`}
            className={`${inputClass(error("description"))} h-11`}
          />
        </Field>
        <Field id={`${id}-percentage`} label={t("admin.sales.form.percentage")} error={error("percentage")}>
          <div className="relative">
            <input
              id={`${id}-percentage`}
              value={draft.percentage}
              onChange={(event) => onChange({ percentage: event.target.value })}
              inputMode="numeric"
              autoComplete="off"
              maxLength={3}
              aria-invalid={error("percentage") ? true : undefined}
              aria-describedby={error("percentage") ? `${id}-percentage-error` : undefined}
              className={`${inputClass(error("percentage"))} h-11 pr-9`}
            />
            <Percent
              size={16}
              aria-hidden
              className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-muted"
            />
          </div>
        </Field>
      </div>

      <div className="grid gap-4 @2xl:grid-cols-[auto_1fr] @2xl:gap-6">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium text-ink">{t("admin.sales.form.requiresMore")}</legend>
          <div className="flex flex-wrap items-center gap-2">
            {([false, true] as const).map((value) => (
              <ChoiceChip
                key={String(value)}
                name={`${id}-requires`}
                checked={draft.requiresMore === value}
                onSelect={() =>
                  onChange({ requiresMore: value, howMany: value ? draft.howMany || "1" : draft.howMany })
                }
                label={t(value ? "admin.sales.form.yes" : "admin.sales.form.no")}
              />
            ))}
          </div>
          {draft.requiresMore && (
            <Field
              id={`${id}-how-many`}
              label={t("admin.sales.form.howMany")}
              // The hint counts the unit the sale falls on, so it waits for a whole number.
              hint={
                !error("howMany") && /^[1-9]\d*$/.test(draft.howMany)
                  ? t("admin.sales.form.howManyHint", { unit: Number(draft.howMany) + 1 })
                  : undefined
              }
              error={error("howMany")}
            >
              <input
                id={`${id}-how-many`}
                type="number"
                min={1}
                max={1000}
                step={1}
                value={draft.howMany}
                onChange={(event) => onChange({ howMany: event.target.value })}
                aria-invalid={error("howMany") ? true : undefined}
                aria-describedby={error("howMany") ? `${id}-how-many-error` : `${id}-how-many-hint`}
                className={`${inputClass(error("howMany"), "w-28")} h-11`}
              />
            </Field>
          )}
        </fieldset>

        <fieldset aria-describedby={error("day") ? `${id}-day-error` : undefined}>
          <legend className="mb-2 text-sm font-medium text-ink">{t("admin.sales.form.day")}</legend>
          <div className="flex flex-wrap gap-2">
            {SALE_DAY_NAMES.map((day) => (
              <ChoiceChip
                key={day}
                name={`${id}-day`}
                value={day}
                checked={draft.day === day}
                onSelect={() => onChange({ day })}
                label={t(`admin.sales.days.${day}`)}
              />
            ))}
          </div>
          {error("day") && (
            <p id={`${id}-day-error`} className="mt-1 text-xs font-semibold text-sale">
              {error("day")}
            </p>
          )}
        </fieldset>
      </div>

      <div className="flex flex-col gap-2">
        <div className="grid gap-4 @2xl:grid-cols-2">
          <Binder
            legend={t("admin.sales.form.categories")}
            searchLabel={t("admin.sales.form.searchCategories")}
            options={categories.data}
            chosen={draft.categories}
            onChange={(chosen) => onChange({ categories: chosen })}
            error={error("categories")}
            failed={categories.isError}
            onRetry={() => void categories.refetch()}
          />
          <Binder
            legend={t("admin.sales.form.products")}
            searchLabel={t("admin.sales.form.searchProducts")}
            options={products.data}
            chosen={draft.products}
            onChange={(chosen) => onChange({ products: chosen })}
            error={error("products")}
            failed={products.isError}
            onRetry={() => void products.refetch()}
          />
        </div>
        {draft.categories.length === 0 && draft.products.length === 0 && (
          <p className="text-xs text-muted">{t("admin.sales.form.wholeStore")}</p>
        )}
      </div>

      <ImageField value={draft.image} onChange={(image) => onChange({ image })} error={error("image")} />

      <div>
        {/* Always in the page, so a screen reader hears what appears in it. */}
        <div role="alert">
          {invalid && (
            <p className="mb-4 flex items-center gap-2 rounded-xl border border-sale bg-card px-4 py-3 text-sm font-semibold text-sale">
              <CircleAlert size={18} aria-hidden className="shrink-0" />
              {t("admin.sales.rules.missing")}
            </p>
          )}
          {!invalid && server && (
            <div className="mb-4 rounded-xl border border-sale bg-card px-4 py-3 text-sm text-sale">
              <p className="flex items-center gap-2 font-semibold">
                <CircleAlert size={18} aria-hidden className="shrink-0" />
                {server.error}
              </p>
              {server.details.length > 0 && (
                <ul className="mt-1 list-disc pl-5">
                  {server.details.map((detail, index) => (
                    <li key={index}>
                      {detail.field}: {detail.reason}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </div>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" size="lg" disabled={busy} aria-busy={busy} className="min-w-44">
            {busy && <LoaderCircle size={18} aria-hidden className="animate-spin" />}
            {editing ? t("admin.sales.form.save") : t("admin.sales.form.create")}
          </Button>
        </div>
      </div>
    </form>
  );
}

/** One radio of a group, drawn as a chip: the arrow keys move the choice, as in any radio group. */
function ChoiceChip({
  name,
  value,
  checked,
  onSelect,
  label,
}: {
  name: string;
  value?: string;
  checked: boolean;
  onSelect: () => void;
  label: string;
}) {
  return (
    <label className="relative inline-flex h-10 cursor-pointer items-center rounded-xl border border-line bg-surface px-3 text-sm font-medium text-ink transition select-none hover:border-accent has-[:checked]:border-accent has-[:checked]:bg-accent has-[:checked]:text-on-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent">
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={onSelect}
        className="sr-only"
      />
      {label}
    </label>
  );
}

/** The sale's picture: an address typed in, or a file uploaded (POST /uploads), with a preview. */
function ImageField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (image: string) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const file = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const upload = useUploadSaleImage();
  const [broken, setBroken] = useState<string | null>(null);

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = "";
    if (!chosen) return;
    setUploading(true);
    try {
      onChange(await upload.mutateAsync(chosen));
    } catch (caught) {
      const tooBig = caught instanceof ApiError && caught.status === 413;
      showToast(t(tooBig ? "admin.sales.form.uploadTooBig" : "admin.sales.form.uploadFailed"), "error");
    } finally {
      setUploading(false);
    }
  };

  // Only an address the rule accepts is loaded: nothing is fetched while one is being typed.
  const preview = /^(https?:\/\/\S+\.\S+|\/uploads\/\S+|\/illustrations\/\S+)$/i.test(value.trim())
    ? value.trim()
    : "";
  return (
    <div className="flex flex-col gap-2">
      <Field
        id={`${id}-url`}
        label={t("admin.sales.form.imageUrl")}
        hint={error ? undefined : t("admin.sales.form.imageHint")}
        error={error}
      >
        <div className="flex flex-col gap-2 @lg:flex-row">
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            value={value}
            onChange={(event) => onChange(event.target.value)}
            placeholder="https://"
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-url-error` : `${id}-url-hint`}
            className={`${inputClass(error)} h-11 min-w-0 @lg:flex-1`}
          />
          <input
            ref={file}
            type="file"
            accept={ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-hidden
            onChange={(event) => void pick(event)}
          />
          <Button
            variant="secondary"
            size="lg"
            className="text-sm"
            onClick={() => file.current?.click()}
            disabled={uploading}
            aria-busy={uploading}
          >
            {uploading ? (
              <LoaderCircle size={18} aria-hidden className="animate-spin" />
            ) : (
              <ImagePlus size={18} aria-hidden />
            )}
            {uploading ? t("admin.sales.form.uploading") : t("admin.sales.form.upload")}
          </Button>
        </div>
      </Field>
      {preview && !error && (
        <div className="flex items-center gap-3">
          {broken === preview ? (
            <span className="grid h-20 w-32 place-items-center rounded-xl border border-dashed border-line px-2 text-center text-xs text-muted">
              {t("admin.sales.form.noPreview")}
            </span>
          ) : (
            <img
              src={preview}
              alt={t("admin.sales.form.preview")}
              onError={() => setBroken(preview)}
              className="h-20 w-32 rounded-xl border border-line bg-accent-soft object-contain"
            />
          )}
          <IconButton
            label={t("admin.sales.form.removeImage")}
            icon={<X size={18} aria-hidden />}
            variant="outline"
            size="sm"
            onClick={() => onChange("")}
          />
        </div>
      )}
    </div>
  );
}

import { useId, useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Plus, X } from "lucide-react";
import { useTranslation } from "@/i18n";
import { DEFAULT_PRODUCT_IMAGE, productInputSchema, type ProductInput } from "@voltio/domain/admin";
import type { Product } from "@voltio/domain/catalog";
import { ApiError, apiFetch } from "@/api/client";
import { useCategories, usePricingContext, useProduct } from "@/api/catalog";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { usePageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { IconButton } from "@/components/ui/IconButton";
import { Modal } from "@/components/ui/Modal";
import { ProductTile } from "@/components/ui/ProductTile";
import { showToast } from "@/components/ui/toast";
import { refreshCatalogue } from "../api";
import { uploadImage } from "../upload";

/** The form as typed: numbers stay text until the schema reads them (it takes "31.50" and "7"). */
interface Draft {
  title: string;
  name: string;
  price: string;
  shippingCost: string;
  description: string;
  stock: string;
  images: string[];
  categories: string[];
}

const EMPTY: Draft = {
  title: "",
  name: "",
  price: "",
  shippingCost: "",
  description: "",
  stock: "",
  images: [],
  categories: [],
};

const draftOf = (product: Product): Draft => ({
  title: product.title,
  name: product.name,
  price: product.price.toFixed(2),
  shippingCost: product.shippingCost.toFixed(2),
  description: product.description,
  stock: String(product.stock),
  images: product.images.map((image) => image.url),
  categories: product.categories.map((category) => category.name),
});

type Errors = Partial<Record<keyof Draft, string>>;

/** The domain schema's verdict, field by field, with the SPEC's messages. */
function validate(draft: Draft): { input?: ProductInput; errors: Errors } {
  const parsed = productInputSchema.safeParse(draft);
  if (parsed.success) return { input: parsed.data, errors: {} };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof Draft;
    errors[field] ??= issue.message;
  }
  return { errors };
}

/** What the live preview shows: the draft as the storefront's product card would draw it. */
const previewOf = (draft: Draft, id: number): Product => ({
  id,
  title: draft.title || "…",
  name: draft.name,
  price: Number(draft.price) || 0,
  shippingCost: Number(draft.shippingCost) || 0,
  stock: Number(draft.stock) || 0,
  description: draft.description,
  images: (draft.images.length ? draft.images : [DEFAULT_PRODUCT_IMAGE]).map((url) => ({ url, altText: "" })),
  categories: draft.categories.map((name, index) => ({ id: -index - 1, name })),
  sales: { productSales: [], categorySales: [] },
  rating: { average: 0, count: 0 },
});

/**
 * /admin/create/Product and /admin/edit/{id} (SPEC.md §2 Admin create/edit product, §5; issue 12 point 4):
 * the fields with a live preview, categories picked or added, images by URL or upload (several at once,
 * with progress, reordered and removed), validated with the same schema as POST/PUT /products.
 */
export function ProductFormPage() {
  const { id: idParam } = useParams();
  const editingId = idParam ? Number(idParam) : undefined;
  const product = useProduct(editingId ?? 0);
  if (editingId !== undefined && product.isPending) return null;
  // Keyed by the product: another product's form starts from its own values.
  return <ProductForm key={editingId ?? "new"} product={editingId ? product.data : undefined} />;
}

function ProductForm({ product }: { product: Product | undefined }) {
  const { t } = useTranslation();
  const editing = product !== undefined;
  usePageTitle(
    t("titles.page", { page: editing ? t("admin.form.editTitle") : t("admin.menu.createProduct") }),
  );
  const navigate = useNavigate();
  const client = useQueryClient();
  const { today, globalSales } = usePricingContext();
  const [draft, setDraft] = useState<Draft>(() => (product ? draftOf(product) : EMPTY));
  const [errors, setErrors] = useState<Errors>({});
  const [dialog, setDialog] = useState<null | "denied" | "created" | "confirmSave" | "missing" | "discard">(
    null,
  );
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const field = (key: Exclude<keyof Draft, "images" | "categories">) => ({
    value: draft[key],
    error: errors[key],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, event.target.value),
  });

  const save = async (input: ProductInput) => {
    setBusy(true);
    setServerError(null);
    try {
      const saved = await apiFetch<Product>(editing ? `/products/${product.id}` : "/products", {
        method: editing ? "PUT" : "POST",
        // An edit is a change from the stock the form loaded: the server refuses it if a sale moved it since.
        body: JSON.stringify(editing ? { ...input, stockBefore: product.stock } : input),
      });
      await refreshCatalogue(client);
      if (editing) {
        showToast(t("admin.form.saved"));
        setDialog(null);
      } else {
        setDialog("created");
        setDraft(EMPTY);
        void saved;
      }
    } catch (error) {
      setDialog(null);
      setServerError(error instanceof ApiError ? error.message : t("admin.form.failed"));
    }
    setBusy(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { input, errors: found } = validate(draft);
    setErrors(found);
    if (!input) {
      setDialog(editing ? "missing" : "denied");
      return;
    }
    if (editing) setDialog("confirmSave");
    else void save(input);
  };

  const ready = draft.title.trim() !== "" && draft.categories.length > 0;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">
        {editing ? t("admin.form.editTitle") : t("admin.menu.createProduct")}
      </h1>
      <div className="grid items-start gap-6 xl:grid-cols-[1fr_18rem]">
        <Card as="section" size="lg" className="p-5" aria-label={t("admin.form.fields")}>
          <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
            <TextInput label={t("admin.form.title")} {...field("title")} className="sm:col-span-2" />
            <TextInput label={t("admin.form.name")} {...field("name")} className="sm:col-span-2" />
            <TextInput label={t("admin.form.price")} inputMode="decimal" {...field("price")} />
            <TextInput label={t("admin.form.shippingCost")} inputMode="decimal" {...field("shippingCost")} />
            <TextInput label={t("admin.form.stock")} inputMode="numeric" {...field("stock")} />
            <TextInput
              label={t("admin.form.description")}
              multiline
              {...field("description")}
              className="sm:col-span-2"
            />
            <CategoryPicker
              chosen={draft.categories}
              onChange={(categories) => set("categories", categories)}
              error={errors.categories}
            />
            <ImagePicker
              images={draft.images}
              update={(change) => setDraft((current) => ({ ...current, images: change(current.images) }))}
              error={errors.images}
            />
            {serverError && (
              <p role="alert" className="text-sm font-semibold text-sale sm:col-span-2">
                {serverError}
              </p>
            )}
            <div className="flex flex-wrap gap-2 sm:col-span-2">
              {editing ? (
                <>
                  <Button type="submit" disabled={busy}>
                    {t("admin.form.saveChanges")}
                  </Button>
                  <Button variant="secondary" onClick={() => setDialog("discard")}>
                    {t("admin.form.discard")}
                  </Button>
                </>
              ) : (
                ready && (
                  <Button type="submit" disabled={busy}>
                    {t("admin.form.create")}
                  </Button>
                )
              )}
            </div>
          </form>
        </Card>
        <aside aria-label={t("admin.form.preview")} className="flex flex-col gap-3">
          <h2 className="text-sm font-semibold text-muted">{t("admin.form.preview")}</h2>
          <div className="pointer-events-none" inert>
            <ProductTile
              product={previewOf(draft, product?.id ?? 0)}
              globalSales={globalSales}
              today={today}
            />
          </div>
          {draft.description && (
            <Card className="p-4 text-sm whitespace-pre-line text-ink">{draft.description}</Card>
          )}
        </aside>
      </div>

      <Modal
        open={dialog === "denied" || dialog === "missing" || dialog === "created"}
        onOpenChange={(open) => !open && setDialog(null)}
        title={
          dialog === "created"
            ? t("admin.form.created")
            : dialog === "denied"
              ? t("admin.form.denied")
              : t("admin.form.missing")
        }
        description={dialog === "denied" ? t("admin.form.fillAll") : undefined}
        closeLabel={t("common.close")}
        className="px-8 pt-10 pb-7 text-center"
      >
        <div className="mt-6 flex justify-center gap-2">
          {dialog === "created" ? (
            <Button onClick={() => void navigate("/admin/products?limit=8&offset=1")}>
              {t("admin.menu.products")}
            </Button>
          ) : null}
          <Button variant="secondary" onClick={() => setDialog(null)}>
            {t("common.close")}
          </Button>
        </div>
      </Modal>
      <ConfirmDialog
        open={dialog === "confirmSave"}
        onOpenChange={(open) => !open && setDialog(null)}
        title={t("admin.form.ready")}
        onAccept={() => {
          const { input } = validate(draft);
          if (input) void save(input);
        }}
        busy={busy}
      />
      <ConfirmDialog
        open={dialog === "discard"}
        onOpenChange={(open) => !open && setDialog(null)}
        title={t("admin.form.confirmDiscard")}
        onAccept={() => window.location.reload()}
      />
      {editing && (
        <Link to="/admin/products?limit=8&offset=1" className="sr-only focus:not-sr-only">
          {t("admin.menu.products")}
        </Link>
      )}
    </div>
  );
}

interface TextInputProps {
  label: string;
  value: string;
  error?: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  multiline?: boolean;
  inputMode?: "decimal" | "numeric";
  className?: string;
}

const inputClass = (error?: string) =>
  `w-full rounded-xl border bg-surface px-3 text-sm text-ink focus:border-accent focus:outline-2 focus:-outline-offset-1 focus:outline-accent ${error ? "border-sale" : "border-line"}`;

function TextInput({ label, value, error, onChange, multiline, inputMode, className = "" }: TextInputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const shared = {
    id,
    value,
    onChange,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  };
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      {multiline ? (
        <textarea {...shared} rows={5} className={`${inputClass(error)} py-2`} />
      ) : (
        <input {...shared} inputMode={inputMode} className={`${inputClass(error)} h-11`} />
      )}
      {error && (
        <p id={errorId} className="text-xs font-semibold text-sale">
          {error}
        </p>
      )}
    </div>
  );
}

function Chips({
  items,
  onRemove,
  label,
}: {
  items: string[];
  onRemove: (index: number) => void;
  label: (item: string) => string;
}) {
  return (
    <ul className="flex flex-wrap gap-2">
      {items.map((item, index) => (
        <li
          key={item}
          className="flex items-center gap-1 rounded-full bg-accent-soft py-1 pr-1 pl-3 text-sm text-accent-strong"
        >
          {item}
          <IconButton
            label={label(item)}
            icon={<X size={14} aria-hidden />}
            size="sm"
            onClick={() => onRemove(index)}
          />
        </li>
      ))}
    </ul>
  );
}

function Fieldset({ legend, error, children }: { legend: string; error?: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-2 sm:col-span-2">
      <legend className="mb-1 text-sm font-medium text-ink">{legend}</legend>
      {children}
      {error && <p className="text-xs font-semibold text-sale">{error}</p>}
    </fieldset>
  );
}

/** SPEC.md §2: a dropdown of existing categories not yet chosen, plus a free-text 'Add' box. */
function CategoryPicker({
  chosen,
  onChange,
  error,
}: {
  chosen: string[];
  onChange: (names: string[]) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const selectId = useId();
  const textId = useId();
  const categories = useCategories();
  const [text, setText] = useState("");
  const has = (name: string) => chosen.some((item) => item.toLowerCase() === name.toLowerCase());
  const add = (name: string) => {
    const trimmed = name.trim();
    // SPEC.md §5: a category chip is added only if the text is non-empty.
    if (trimmed && !has(trimmed)) onChange([...chosen, trimmed]);
  };
  return (
    <Fieldset legend={t("admin.form.categories")} error={error}>
      <Chips
        items={chosen}
        label={(name) => t("admin.form.removeCategory", { name })}
        onRemove={(index) => onChange(chosen.filter((_, i) => i !== index))}
      />
      <div className="grid gap-2 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={selectId} className="text-xs text-muted">
            {t("admin.form.existingCategory")}
          </label>
          <select
            id={selectId}
            value=""
            onChange={(event) => add(event.target.value)}
            className="h-11 rounded-xl border border-line bg-surface px-3 text-sm text-ink"
          >
            <option value="">{t("admin.form.pickCategory")}</option>
            {(categories.data ?? [])
              .filter((category) => !has(category.name))
              .map((category) => (
                <option key={category.id} value={category.name}>
                  {category.name}
                </option>
              ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={textId} className="text-xs text-muted">
            {t("admin.form.newCategory")}
          </label>
          <div className="flex gap-2">
            <input
              id={textId}
              value={text}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  add(text);
                  setText("");
                }
              }}
              className={`${inputClass()} h-11`}
            />
            <Button
              variant="secondary"
              onClick={() => {
                add(text);
                setText("");
              }}
            >
              <Plus size={16} aria-hidden />
              {t("admin.form.add")}
            </Button>
          </div>
        </div>
      </div>
    </Fieldset>
  );
}

/** Images by URL or upload (several at once, each with its progress), reordered with arrows, removed with x. */
function ImagePicker({
  images,
  update,
  error,
}: {
  images: string[];
  /** A change to the images as they are when it lands: uploads finish in any order. */
  update: (change: (images: string[]) => string[]) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const urlId = useId();
  const fileId = useId();
  const [url, setUrl] = useState("");
  const [uploads, setUploads] = useState<{ name: string; progress: number; error?: string }[]>([]);

  const addUrl = () => {
    const trimmed = url.trim();
    if (trimmed) update((current) => (current.includes(trimmed) ? current : [...current, trimmed]));
    setUrl("");
  };
  const upload = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      setUploads((current) => [...current, { name: file.name, progress: 0 }]);
      const track = (change: Partial<{ progress: number; error: string }>) =>
        setUploads((current) =>
          current.map((item) => (item.name === file.name ? { ...item, ...change } : item)),
        );
      uploadImage(file, (progress) => track({ progress }))
        .then((uploaded) => {
          update((current) => [...current, uploaded]);
          setUploads((current) => current.filter((item) => item.name !== file.name));
        })
        .catch((caught: Error) => track({ error: caught.message }));
    }
  };
  const move = (index: number, by: -1 | 1) =>
    update((current) => {
      const next = [...current];
      [next[index], next[index + by]] = [next[index + by]!, next[index]!];
      return next;
    });

  return (
    <Fieldset legend={t("admin.form.images")} error={error}>
      <ol className="flex flex-col gap-2">
        {images.map((image, index) => (
          <li key={image} className="flex items-center gap-2 rounded-xl border border-line p-2">
            <img
              src={image}
              alt=""
              width={48}
              height={48}
              className="h-12 w-12 rounded-lg bg-accent-soft object-contain"
            />
            <span className="min-w-0 flex-1 truncate text-xs text-muted">{image}</span>
            <IconButton
              label={t("admin.form.moveUp")}
              icon={<ArrowUp size={16} aria-hidden />}
              size="sm"
              disabled={index === 0}
              onClick={() => move(index, -1)}
            />
            <IconButton
              label={t("admin.form.moveDown")}
              icon={<ArrowDown size={16} aria-hidden />}
              size="sm"
              disabled={index === images.length - 1}
              onClick={() => move(index, 1)}
            />
            <IconButton
              label={t("admin.form.removeImage")}
              icon={<X size={16} aria-hidden />}
              size="sm"
              onClick={() => update((current) => current.filter((_, i) => i !== index))}
            />
          </li>
        ))}
      </ol>
      {uploads.map((item) => (
        <div key={item.name} className="flex flex-col gap-1 text-xs text-muted">
          <label>
            {item.error ? t("admin.form.uploadFailed", { name: item.name, error: item.error }) : item.name}
            <progress value={item.progress} max={1} className="ml-2 align-middle" />
          </label>
        </div>
      ))}
      <div className="grid gap-2 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={urlId} className="text-xs text-muted">
            {t("admin.form.imageUrl")}
          </label>
          <div className="flex gap-2">
            <input
              id={urlId}
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              className={`${inputClass()} h-11`}
            />
            <Button variant="secondary" onClick={addUrl}>
              <Plus size={16} aria-hidden />
              {t("admin.form.add")}
            </Button>
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={fileId} className="text-xs text-muted">
            {t("admin.form.upload")}
          </label>
          <input
            id={fileId}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            multiple
            onChange={(event) => {
              upload(event.target.files);
              event.target.value = "";
            }}
            className="w-full min-w-0 text-sm text-ink file:mr-3 file:rounded-lg file:border-0 file:bg-accent-soft file:px-3 file:py-2 file:text-accent-strong"
          />
        </div>
      </div>
    </Fieldset>
  );
}

export default ProductFormPage;

import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import {
  Controller,
  useForm,
  useWatch,
  type Control,
  type FieldError,
  type FieldErrors,
  type Merge,
  type Resolver,
} from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "@/i18n";
import { productInputSchema, type ProductInput } from "@voltio/domain/admin";
import type { Product } from "@voltio/domain/catalog";
import { ApiError } from "@/api/client";
import { usePricingContext, useProduct } from "@/api/catalog";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { usePageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { Modal } from "@/components/ui/Modal";
import { ProductTile } from "@/components/ui/ProductTile";
import { showToast } from "@/components/ui/toast";
import { useSaveProduct } from "./api";
import { CategoryPicker } from "./CategoryPicker";
import { ImagePicker } from "./ImagePicker";
import { TextInput } from "./ProductFormControls";
import {
  EMPTY_DRAFT,
  draftOf,
  previewOf,
  refusalsOf,
  type ProductDraft,
  type Refusal,
} from "./product-draft";

/**
 * A list fails as a whole (no categories) or by an item, which zodResolver files under the item's index
 * (images.2): the list shows the first message.
 */
const listError = (error: Merge<FieldError, (FieldError | undefined)[]> | undefined) =>
  error?.message ?? (Array.isArray(error) ? error.find((item) => item?.message)?.message : undefined);

/** Every field's message, a list's items' included. */
const messagesOf = (errors: FieldErrors<ProductDraft>) =>
  Object.values(errors).flatMap((error) => {
    const message = listError(error as Merge<FieldError, (FieldError | undefined)[]>);
    return message ? [message] : [];
  });

/** The refused submit's dialog says why: docs/product-rules.md §9's 'fill in all the fields' only when some are empty. */
const REFUSAL_TEXTS: Record<Refusal, string> = {
  missing: "admin.form.fillAll",
  negative: "admin.form.negative",
  invalid: "admin.form.checkFields",
};

/**
 * /admin/create/Product and /admin/edit/{id} (docs/product-rules.md §1 Admin create/edit product, §9):
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
  const saveProduct = useSaveProduct(product);
  const form = useForm<ProductDraft, unknown, ProductInput>({
    // The draft is text where the schema also takes numbers and objects: a narrower input it reads as well.
    resolver: zodResolver(productInputSchema) as Resolver<ProductDraft, unknown, ProductInput>,
    defaultValues: product ? draftOf(product) : EMPTY_DRAFT,
    // The messages are the last submit's verdict, and the dialog that follows it keeps the focus.
    reValidateMode: "onSubmit",
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;
  const [title, categories] = useWatch({ control: form.control, name: ["title", "categories"] });
  const [dialog, setDialog] = useState<null | "denied" | "created" | "confirmSave" | "missing" | "discard">(
    null,
  );
  const [serverError, setServerError] = useState<string | null>(null);
  const [refusals, setRefusals] = useState<Refusal[]>([]);

  const save = async (input: ProductInput) => {
    setServerError(null);
    try {
      await saveProduct.mutateAsync(input);
      if (editing) {
        showToast(t("admin.form.saved"));
        setDialog(null);
      } else {
        setDialog("created");
        form.reset(EMPTY_DRAFT);
      }
    } catch (error) {
      setDialog(null);
      setServerError(error instanceof ApiError ? error.message : t("admin.form.failed"));
    }
  };

  const submit = form.handleSubmit(
    async (input) => {
      if (editing) setDialog("confirmSave");
      else await save(input);
    },
    (invalid) => {
      const reasons = refusalsOf(messagesOf(invalid));
      setRefusals(reasons);
      // An edit with every field filled in is not 'missing' fields: it is denied for its own reason.
      setDialog(editing && reasons.includes("missing") ? "missing" : "denied");
    },
  );

  const ready = title.trim() !== "" && categories.length > 0;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink">
        {editing ? t("admin.form.editTitle") : t("admin.menu.createProduct")}
      </h1>
      <div className="grid items-start gap-6 xl:grid-cols-[1fr_18rem]">
        <Card as="section" size="lg" className="p-5" aria-label={t("admin.form.fields")}>
          <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4 sm:grid-cols-2">
            <TextInput
              label={t("admin.form.title")}
              error={errors.title?.message}
              {...form.register("title")}
              className="sm:col-span-2"
            />
            <TextInput
              label={t("admin.form.name")}
              error={errors.name?.message}
              {...form.register("name")}
              className="sm:col-span-2"
            />
            <TextInput
              label={t("admin.form.price")}
              inputMode="decimal"
              error={errors.price?.message}
              {...form.register("price")}
            />
            <TextInput
              label={t("admin.form.shippingCost")}
              inputMode="decimal"
              error={errors.shippingCost?.message}
              {...form.register("shippingCost")}
            />
            <TextInput
              label={t("admin.form.stock")}
              inputMode="numeric"
              error={errors.stock?.message}
              {...form.register("stock")}
            />
            <TextInput
              label={t("admin.form.description")}
              multiline
              error={errors.description?.message}
              {...form.register("description")}
              className="sm:col-span-2"
            />
            <Controller
              control={form.control}
              name="categories"
              render={({ field }) => (
                <CategoryPicker
                  chosen={field.value}
                  onChange={field.onChange}
                  error={listError(errors.categories)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="images"
              render={({ field }) => (
                <ImagePicker
                  images={field.value}
                  // Read at landing time: uploads finish in any order.
                  update={(change) => field.onChange(change(form.getValues("images")))}
                  error={listError(errors.images)}
                />
              )}
            />
            {serverError && (
              <p role="alert" className="text-sm font-semibold text-sale sm:col-span-2">
                {serverError}
              </p>
            )}
            <div className="flex flex-wrap gap-2 sm:col-span-2">
              {editing ? (
                <>
                  <Button type="submit" disabled={isSubmitting}>
                    {t("admin.form.saveChanges")}
                  </Button>
                  <Button variant="secondary" onClick={() => setDialog("discard")}>
                    {t("admin.form.discard")}
                  </Button>
                </>
              ) : (
                ready && (
                  <Button type="submit" disabled={isSubmitting}>
                    {t("admin.form.create")}
                  </Button>
                )
              )}
            </div>
          </form>
        </Card>
        <ProductPreview control={form.control} id={product?.id ?? 0} />
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
        description={
          dialog === "denied" ? refusals.map((reason) => t(REFUSAL_TEXTS[reason])).join(" ") : undefined
        }
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
        onAccept={() => void form.handleSubmit(save)()}
        busy={isSubmitting}
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

/** Watches every field on its own, so a keystroke redraws the card and not the whole form. */
function ProductPreview({
  control,
  id,
}: {
  control: Control<ProductDraft, unknown, ProductInput>;
  id: number;
}) {
  const { t } = useTranslation();
  const { today, globalSales } = usePricingContext();
  const draft = { ...EMPTY_DRAFT, ...useWatch({ control }) };
  return (
    <aside aria-label={t("admin.form.preview")} className="flex flex-col gap-3">
      <h2 className="text-sm font-semibold text-muted">{t("admin.form.preview")}</h2>
      <div className="pointer-events-none" inert>
        <ProductTile product={previewOf(draft, id)} globalSales={globalSales} today={today} />
      </div>
      {draft.description && (
        <Card className="p-4 text-sm whitespace-pre-line text-ink">{draft.description}</Card>
      )}
    </aside>
  );
}

export default ProductFormPage;

import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Pencil, Percent, Search, SlidersHorizontal, X } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { Product } from "@voltio/domain/catalog";
import { formatDollars } from "@voltio/domain/money";
import { toQuery } from "@/api/client";
import { useCategories, useCategorySuggestions, useProductSuggestions, useProducts } from "@/api/catalog";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { usePageTitle } from "@/components/page-title";
import { useDebouncedValue } from "@/components/use-debounced-value";
import { buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { IconButton } from "@/components/ui/IconButton";
import { showToast } from "@/components/ui/toast";
import { textLinkClass } from "@/components/ui/text-link";
import { Field } from "../Field";
import { PageBar } from "../PageBar";
import { useBrands } from "../catalogue/api";
import { useDeleteProduct } from "./api";
import { LOW_STOCK_CHOICES, adminListFilters } from "./list-filters";

/**
 * /admin/products (docs/product-rules.md §1 Admin products): every product, out of stock included, by
 * category or search (and, issue 41, by brand and low stock), 8 a page with the page in the URL; each row links to the product, its edit form and
 * 'Add sale', and deletes after 'Are you sure you want to delete it ?'.
 */
export function ProductsPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("admin.menu.products") }));
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const categories = useCategories();
  const brands = useBrands();
  const categorySelectId = useId();
  const brandSelectId = useId();
  const stockSelectId = useId();
  const filters = adminListFilters(params);
  const products = useProducts(filters);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const deleteProduct = useDeleteProduct({
    onSuccess: () => showToast(t("admin.products.deleted")),
    onError: () => showToast(t("admin.products.deleteFailed"), "error"),
    onSettled: () => setDeleting(null),
  });

  // Brand and low stock stay while the category or the search changes (an owner restocking one brand);
  // those two keep the category and search in turn.
  const kept = { search: filters.search, categoryId: filters.categoryId };
  const go = (next: Record<string, string | number | undefined>) =>
    void navigate(
      `/admin/products${toQuery({ limit: filters.limit, offset: 1, brand: filters.brand, maxStock: filters.maxStock, ...next })}`,
    );

  const remove = () => {
    if (deleting) deleteProduct.mutate(deleting.id);
  };

  const totalPages = products.data?.totalPages ?? 1;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight text-ink">{t("admin.menu.products")}</h1>
        <Link to="/admin/create/Product" className={buttonClass()}>
          {t("admin.menu.createProduct")}
        </Link>
      </div>
      <div className="grid gap-3 md:grid-cols-3 lg:grid-cols-[12rem_12rem_12rem_1fr]">
        <Field small id={categorySelectId} label={t("admin.products.category")}>
          <select
            id={categorySelectId}
            value={filters.categoryId ?? ""}
            onChange={(event) => go({ categoryId: event.target.value || undefined })}
            className="h-11 rounded-xl border border-line bg-card px-3 text-sm text-ink"
          >
            <option value="">{t("admin.products.allCategories")}</option>
            {(categories.data ?? []).map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </Field>
        <Field small id={brandSelectId} label={t("admin.products.brand")}>
          <select
            id={brandSelectId}
            value={filters.brand ?? ""}
            onChange={(event) => go({ ...kept, brand: event.target.value || undefined })}
            className="h-11 rounded-xl border border-line bg-card px-3 text-sm text-ink"
          >
            <option value="">{t("admin.products.allBrands")}</option>
            {(brands.data ?? []).map((brand) => (
              <option key={brand.id} value={brand.slug}>
                {brand.name}
              </option>
            ))}
          </select>
        </Field>
        <Field small id={stockSelectId} label={t("admin.products.lowStock")}>
          <select
            id={stockSelectId}
            value={filters.maxStock ?? ""}
            onChange={(event) => go({ ...kept, maxStock: event.target.value || undefined })}
            className="h-11 rounded-xl border border-line bg-card px-3 text-sm text-ink"
          >
            <option value="">{t("admin.products.anyStock")}</option>
            {LOW_STOCK_CHOICES.map((count) => (
              <option key={count} value={count}>
                {count === 0 ? t("admin.products.soldOut") : t("admin.products.atMost", { count })}
              </option>
            ))}
          </select>
        </Field>
        <AdminSearch
          initial={filters.search ?? ""}
          onSearch={(search) => go({ search })}
          onCategory={(categoryId) => go({ categoryId })}
        />
      </div>

      <Card as="section" size="lg" aria-label={t("admin.products.list")} className="overflow-hidden">
        {products.isPending ? (
          <p role="status" className="p-5 text-muted">
            {t("common.loading")}
          </p>
        ) : (products.data?.products.length ?? 0) === 0 ? (
          <p className="p-5 text-muted">{t("admin.products.none")}</p>
        ) : (
          <ul className="divide-y divide-line">
            {products.data!.products.map((product) => (
              <li key={product.id} className="flex flex-wrap items-center gap-3 p-3 sm:flex-nowrap">
                <img
                  src={product.images[0]?.url}
                  alt=""
                  width={56}
                  height={56}
                  className="h-14 w-14 shrink-0 rounded-lg bg-accent-soft object-contain"
                />
                <div className="flex min-w-0 flex-1 flex-col text-sm">
                  <Link
                    to={`/product/${product.id}`}
                    className={`truncate font-medium text-ink ${textLinkClass}`}
                  >
                    {product.title}
                  </Link>
                  <span className="text-muted tabular-nums">
                    US$ {formatDollars(product.price)} ·{" "}
                    <span className={product.stock === 0 ? "font-semibold text-sale" : ""}>
                      {t("admin.products.stock", { count: product.stock })}
                    </span>
                    {product.brand && <> · {product.brand.name}</>}
                  </span>
                </div>
                <div className="flex shrink-0 items-center gap-1">
                  <Link
                    to={`/admin/edit/${product.id}`}
                    className={buttonClass({ variant: "secondary", size: "sm" })}
                    aria-label={t("admin.products.editOf", { title: product.title })}
                  >
                    <Pencil size={16} aria-hidden />
                    {t("admin.products.edit")}
                  </Link>
                  <Link
                    to={`/admin/details/${product.id}`}
                    className={buttonClass({ variant: "secondary", size: "sm" })}
                    aria-label={t("admin.catalogue.detailsFor", { title: product.title })}
                  >
                    <SlidersHorizontal size={16} aria-hidden />
                    {t("admin.catalogue.details")}
                  </Link>
                  <Link
                    to={`/admin/discounts?p=${product.id}`}
                    className={buttonClass({ variant: "secondary", size: "sm" })}
                    aria-label={t("admin.products.addSaleOf", { title: product.title })}
                  >
                    <Percent size={16} aria-hidden />
                    {t("admin.products.addSale")}
                  </Link>
                  <IconButton
                    label={t("admin.products.deleteOf", { title: product.title })}
                    icon={<X size={18} aria-hidden />}
                    size="sm"
                    onClick={() => setDeleting(product)}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <PageBar
        label={t("admin.products.pages")}
        page={filters.offset}
        totalPages={totalPages}
        onPage={(offset) => go({ ...filters, includeOutOfStock: undefined, offset })}
      />

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("admin.products.confirmDelete")}
        description={deleting?.title}
        onAccept={remove}
        busy={deleteProduct.isPending}
      />
    </div>
  );
}

/** docs/product-rules.md §9: suggestions are fetched once the text is longer than 3 characters and shown past 2. */
const fetchesFor = (text: string) => text.trim().length > 3;
const showsFor = (text: string) => text.trim().length > 2;

function AdminSearch({
  initial,
  onSearch,
  onCategory,
}: {
  initial: string;
  onSearch: (search: string | undefined) => void;
  onCategory: (categoryId: number) => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const listId = useId();
  const [text, setText] = useState(initial);
  const query = useDebouncedValue(text.trim(), 250);
  const enabled = fetchesFor(query);
  const categories = useCategorySuggestions(query, { enabled });
  const products = useProductSuggestions(
    { search: query, limit: 5, offset: 1, includeOutOfStock: true },
    { enabled },
  );
  const open = showsFor(text) && enabled && (categories.data?.length || products.data?.products.length);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim() || undefined);
  };

  return (
    <form role="search" onSubmit={submit} className="relative">
      <Field small id={inputId} label={t("admin.products.search")}>
        <div className="flex">
          <input
            id={inputId}
            value={text}
            onChange={(event) => setText(event.target.value)}
            // Only while the suggestions are there: a reference to a missing list is invalid ARIA.
            aria-controls={open ? listId : undefined}
            autoComplete="off"
            className="h-11 min-w-0 flex-1 rounded-l-xl border border-line bg-card px-3 text-sm text-ink"
          />
          <button
            type="submit"
            className={`${buttonClass({ size: "lg" })} rounded-l-none`}
            aria-label={t("nav.searchSubmit")}
          >
            <Search size={18} aria-hidden />
          </button>
        </div>
      </Field>
      {open ? (
        <ul
          id={listId}
          className="absolute top-full z-20 mt-1 w-full rounded-xl border border-line bg-card p-1 shadow-lg"
        >
          {(categories.data ?? []).slice(0, 3).map((category) => (
            <li key={`c${category.id}`}>
              <button
                type="button"
                onClick={() => onCategory(category.id)}
                className="w-full rounded-lg px-3 py-2 text-left text-sm text-ink hover:bg-accent-soft"
              >
                {t("nav.categoryPrefix")} {category.name}
              </button>
            </li>
          ))}
          {(products.data?.products ?? []).map((product) => (
            <li key={`p${product.id}`}>
              <Link
                to={`/admin/edit/${product.id}`}
                className="block truncate rounded-lg px-3 py-2 text-sm text-ink hover:bg-accent-soft"
              >
                {product.title}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}

export default ProductsPage;

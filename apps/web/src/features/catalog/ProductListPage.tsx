import { Link, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useCategories, useProducts, type ProductFilters } from "@/api/catalog";
import { useStoreInfo } from "@/api/store";
import { ProductCard } from "@/components/ProductCard";

const numberParam = (value: string | null) =>
  value === null || value === "" || Number.isNaN(Number(value)) ? undefined : Number(value);

/** All listing state lives in the URL query, so back, forward and reload keep it. */
function filtersFrom(params: URLSearchParams): ProductFilters {
  const order = params.get("order");
  return {
    search: params.get("search") ?? undefined,
    categoryId: numberParam(params.get("categoryId")),
    offset: numberParam(params.get("offset")) ?? 1,
    minPrice: numberParam(params.get("minPrice")),
    maxPrice: numberParam(params.get("maxPrice")),
    freeShipping: params.get("freeShipping") === "true" ? true : undefined,
    order: order === "ASC" || order === "DESC" ? order : undefined,
  };
}

export function ProductListPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const filters = filtersFrom(params);
  const { data, isPending } = useProducts(filters);
  const { data: categories } = useCategories();
  const { data: store } = useStoreInfo();
  const category = categories?.find((c) => c.id === filters.categoryId);
  const page = filters.offset ?? 1;
  const pageLink = (target: number) => {
    const next = new URLSearchParams(params);
    next.set("offset", String(target));
    return `/products?${next.toString()}`;
  };

  return (
    <section>
      <h1 className="mb-1 text-2xl font-bold text-ink">
        {category?.name ?? filters.search ?? t("catalog.allProducts")}
      </h1>
      {data && <p className="mb-6 text-sm text-muted">{t("catalog.results", { count: data.total })}</p>}
      {isPending && <p className="text-muted">{t("catalog.loading")}</p>}
      {data && data.products.length === 0 && (
        <p className="py-16 text-center text-lg text-muted">{t("catalog.noResults")}</p>
      )}
      <div className="grid grid-cols-1 gap-4 min-[480px]:grid-cols-2 md:grid-cols-3 lg:grid-cols-4">
        {data?.products.map((product) => (
          <ProductCard
            key={product.id}
            product={product}
            globalSales={data.globalSales}
            today={store?.today}
          />
        ))}
      </div>
      {data && data.totalPages > 1 && (
        <nav aria-label="Pagination" className="mt-8 flex items-center justify-center gap-4 text-sm">
          {page > 1 && (
            <Link to={pageLink(page - 1)} className="rounded-lg border border-line px-3 py-1.5 text-ink">
              {t("catalog.previous")}
            </Link>
          )}
          <span className="text-muted">{t("catalog.page", { page, total: data.totalPages })}</span>
          {page < data.totalPages && (
            <Link to={pageLink(page + 1)} className="rounded-lg border border-line px-3 py-1.5 text-ink">
              {t("catalog.next")}
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}

export default ProductListPage;

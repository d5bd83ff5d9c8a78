import { Link, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { globalSalesOf } from "@voltio/domain/discount";
import { useProduct, useSales } from "@/api/catalog";
import { useStoreInfo } from "@/api/store";
import { PriceTag } from "@/components/ui/PriceTag";
import { NotFoundPage } from "@/app/NotFoundPage";

export function ProductPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const { data: product, isError, isPending } = useProduct(id);
  const { data: store } = useStoreInfo();
  const { data: sales } = useSales();
  if (!Number.isInteger(id) || id < 1 || isError) return <NotFoundPage message={t("product.notFound")} />;
  if (isPending) return <p className="text-muted">{t("catalog.loading")}</p>;
  const image = product.images[0];
  return (
    <article className="grid gap-8 md:grid-cols-2">
      <div className="overflow-hidden rounded-3xl border border-line bg-accent-soft">
        {image && (
          <img
            src={image.url}
            alt={image.altText}
            width={800}
            height={600}
            className="h-full w-full object-cover"
          />
        )}
      </div>
      <div>
        <ul className="mb-3 flex flex-wrap gap-2">
          {product.categories.map((category) => (
            <li key={category.id}>
              <Link
                to={`/products?categoryId=${category.id}&offset=1`}
                className="rounded-full bg-accent-soft px-3 py-1 text-xs font-medium text-accent-strong"
              >
                {category.name}
              </Link>
            </li>
          ))}
        </ul>
        <h1 className="text-2xl font-bold text-ink">{product.title}</h1>
        <div className="mt-4">
          <PriceTag
            product={product}
            globalSales={globalSalesOf(sales ?? [])}
            today={store?.today}
            size="lg"
          />
        </div>
        <p className="mt-2 text-sm text-muted">
          {product.shippingCost === 0
            ? t("catalog.freeShipping")
            : t("catalog.shipping", { cost: product.shippingCost.toFixed(2) })}
        </p>
        <p className="mt-1 text-sm text-muted">
          {product.stock <= 1 ? t("catalog.noStock") : t("catalog.stock", { count: product.stock })}
        </p>
        <h2 className="mt-8 font-semibold text-ink">{t("product.description")}</h2>
        <p className="mt-2 text-sm leading-relaxed text-muted">{product.description}</p>
      </div>
    </article>
  );
}

export default ProductPage;

import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useProducts } from "@/api/catalog";
import { useStoreInfo } from "@/api/store";
import { ProductCard } from "@/components/ProductCard";

export function HomePage() {
  const { t } = useTranslation();
  const { data } = useProducts({ limit: 8, offset: 1 });
  const { data: store } = useStoreInfo();
  return (
    <>
      <section className="rounded-3xl bg-gradient-to-br from-accent to-accent-strong px-6 py-12 text-white sm:px-12">
        <h1 className="text-3xl font-bold sm:text-4xl">{t("store.name")}</h1>
        <p className="mt-2 max-w-xl text-lg text-white/90">{t("store.tagline")}</p>
        <Link
          to="/products?offset=1"
          className="mt-6 inline-block rounded-xl bg-white px-5 py-2.5 font-semibold text-accent-strong"
        >
          {t("catalog.allProducts")}
        </Link>
      </section>
      <h2 className="mt-10 mb-4 text-xl font-semibold text-ink">{t("catalog.featured")}</h2>
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
    </>
  );
}

export default HomePage;

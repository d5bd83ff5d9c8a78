import { Link, useParams, useSearchParams } from "react-router";
import { loadTexts, useTranslation } from "@/i18n";
import { Truck } from "lucide-react";
import { priceToday } from "@voltio/domain/pricing";
import { ApiError } from "@/api/client";
import { usePricingContext, useProduct } from "@/api/catalog";
import { NotFoundPage } from "@/components/NotFoundPage";
import { ListToggleButton } from "@/components/ListToggleButton";
import { Card } from "@/components/ui/Card";
import { usePageTitle } from "@/components/page-title";
import { DiscountBadge } from "@/components/ui/DiscountBadge";
import { PriceTag } from "@/components/ui/PriceTag";
import { Skeleton } from "@/components/ui/Skeleton";
import { focusRingClass } from "@/components/ui/focus-ring";
import { BuyButton } from "./BuyButton";
import { descriptionBullets } from "@voltio/domain/description";
import { ImageSlider } from "./ImageSlider";
import { RatingSummary } from "@/components/ui/Stars";
import { textLinkClass } from "@/components/ui/text-link";
import { StockText } from "./StockText";
import { categoryListingPath } from "@/components/paths";
import { LoadError } from "@/components/LoadError";
import { lazySection } from "@/components/lazy-section";
import { useNearViewport } from "@/components/use-near-viewport";
import { usd } from "@/components/ui/usd";
import { stockText } from "./StockText";
import { VariantAddToCart } from "./VariantAddToCart";
import { VariantPicker } from "./VariantPicker";
import { chosenVariant, variantImages, variantPriceToday, withVariant } from "./variant-choice";

/** A variant with this many units or fewer says 'Only n left'. */
const FEW_LEFT = 5;

// Below the fold, or only for a sold-out product: their code (the review form and its order queries, the
// carousel, the back-in-stock request) comes after the page's.
const ReviewsSection = lazySection(() => import("./ReviewsSection").then((module) => module.ReviewsSection));
const RelatedProducts = lazySection(() =>
  import("./RelatedProducts").then((module) => module.RelatedProducts),
);
const StockAlert = lazySection(() => import("./StockAlert").then((module) => module.StockAlert));
// Issue 41's specifications and compare button come after the page's code, each with the catalogue's texts
// (ADR 0006). The option pickers and Add to cart are the page's own: a click on them before a section's code
// arrived would be lost.
const withCatalogueTexts = <T,>(load: Promise<T>) =>
  Promise.all([load, loadTexts("catalogue")]).then(([loaded]) => loaded);
const SpecTable = lazySection(() =>
  withCatalogueTexts(import("./SpecTable").then((module) => module.SpecTable)),
);
const CompareButton = lazySection(() =>
  withCatalogueTexts(import("./CompareButton").then((module) => module.CompareButton)),
);

function ProductSkeleton() {
  return (
    <div role="status" aria-busy="true" className="grid gap-8 md:grid-cols-2 lg:gap-12">
      <span className="sr-only">…</span>
      <Skeleton className="aspect-[4/3] w-full rounded-3xl" />
      <div className="flex flex-col gap-4">
        <Skeleton className="h-6 w-40" />
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-2/3" />
        <Skeleton className="mt-4 h-10 w-44" />
        <Skeleton className="mt-6 h-12 w-full" />
      </div>
    </div>
  );
}

export function ProductPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const validId = Number.isInteger(id) && id > 0;
  const { data: product, error, isPending, refetch } = useProduct(id);
  const [params, setParams] = useSearchParams();
  const { today, globalSales } = usePricingContext();
  usePageTitle(product ? t("titles.page", { page: product.title }) : undefined);
  // Below the fold: their code comes as the shopper scrolls towards them, not with the page.
  const [belowTheFold, nearBelowTheFold] = useNearViewport();

  if (!validId || (error instanceof ApiError && error.status === 404)) {
    return <NotFoundPage message={t("product.notFound")} />;
  }
  if (error) {
    return <LoadError onRetry={() => void refetch()} className="mx-auto max-w-md py-20" />;
  }
  if (isPending) return <ProductSkeleton />;

  const bullets = descriptionBullets(product.description);
  // Sold in several ways (issue 41): the URL's variant (?variant=, what the server renders too) or the first
  // with stock; price, stock, pictures and the Add button follow it.
  const hasOptions = product.options.length > 0;
  const variant = hasOptions ? chosenVariant(product, params) : undefined;
  const price = variant
    ? variantPriceToday(product, variant, globalSales, today)
    : priceToday(product, globalSales, today);
  const stock = variant?.stock ?? product.stock;
  const images = variantImages(product, variant);
  // Replaced, not pushed: the choice is shareable without filling the history with every click.
  const choose = (variantId: number) =>
    setParams(withVariant(params, variantId), { replace: true, preventScrollReset: true });

  return (
    <div className="flex flex-col gap-16">
      <article className="grid gap-8 md:grid-cols-2 lg:gap-12">
        <ImageSlider key={`${product.id}-${images[0]?.url ?? ""}`} images={images} />
        <div className="flex min-w-0 flex-col">
          <ul className="flex flex-wrap gap-2" aria-label={t("product.categories")}>
            {product.categories.map((category) => (
              <li key={category.id}>
                <Link
                  to={categoryListingPath(category.id)}
                  className={`inline-block rounded-full bg-accent-soft px-3 py-1 text-xs font-semibold text-accent-strong transition hover:bg-accent hover:text-on-accent ${focusRingClass}`}
                >
                  {category.name}
                </Link>
              </li>
            ))}
          </ul>
          <h1 className="mt-4 text-2xl leading-tight font-bold tracking-tight text-ink sm:text-3xl">
            {product.title}
          </h1>
          <p className="mt-2 text-sm text-muted">
            {product.brand ? `${product.brand.name} · ${product.name}` : product.name}
          </p>
          {product.rating.count > 0 && (
            <a href="#reviews-heading" className={`mt-2 self-start ${textLinkClass}`}>
              <RatingSummary rating={product.rating} />
            </a>
          )}
          {variant && (
            <div className="mt-6">
              <VariantPicker
                product={product}
                chosen={variant}
                onChoose={choose}
                price={usd(price.unitCents)}
                stock={stockText(t, stock, FEW_LEFT)}
              />
            </div>
          )}
          <Card raised className="mt-6 flex flex-col gap-3 p-5">
            {price.sale && <DiscountBadge sale={price.sale} className="self-start" />}
            <PriceTag price={price} size="lg" />
            <p className="flex items-center gap-2 text-sm text-muted">
              <Truck size={18} aria-hidden className={product.shippingCost === 0 ? "text-success" : ""} />
              {product.shippingCost === 0 ? (
                <span className="font-medium text-success">{t("catalog.freeShipping")}</span>
              ) : (
                t("catalog.shipping", { cost: product.shippingCost.toFixed(2) })
              )}
            </p>
            <StockText stock={stock} fewAt={variant ? FEW_LEFT : undefined} />
            {variant && variant.stock <= 0 && (
              <p className="text-sm text-muted">{t("variants.soldOutChoice")}</p>
            )}
            {stock <= 0 && <StockAlert productId={product.id} variantId={variant?.id} />}
            {variant ? (
              <div className="mt-2 flex flex-col gap-2">
                <VariantAddToCart product={product} variant={variant} />
                <div className="grid grid-cols-2 gap-2">
                  <BuyButton productId={product.id} stock={stock} variantId={variant.id} />
                  <ListToggleButton list="inWishList" product={product} variant="full" />
                </div>
              </div>
            ) : (
              <div className="mt-2 flex flex-col gap-2">
                <BuyButton productId={product.id} stock={product.stock} />
                <div className="grid grid-cols-2 gap-2">
                  <ListToggleButton list="inCart" product={product} variant="full" />
                  <ListToggleButton list="inWishList" product={product} variant="full" />
                </div>
              </div>
            )}
          </Card>
          <div className="mt-4">
            <CompareButton product={product} />
          </div>
        </div>
      </article>

      <section aria-labelledby="description-heading" className="max-w-3xl">
        <h2 id="description-heading" className="text-xl font-bold tracking-tight text-ink">
          {t("product.description")}
        </h2>
        <ul className="mt-4 flex list-disc flex-col gap-2 pl-5 text-sm leading-relaxed text-muted marker:text-accent">
          {bullets.map((bullet, index) => (
            <li key={index}>{bullet}</li>
          ))}
        </ul>
      </section>

      <div ref={belowTheFold} className="flex flex-col gap-16">
        <SpecTable product={product} until={nearBelowTheFold} />
        <ReviewsSection productId={product.id} until={nearBelowTheFold} />
        <RelatedProducts product={product} today={today} until={nearBelowTheFold} />
      </div>
    </div>
  );
}

export default ProductPage;

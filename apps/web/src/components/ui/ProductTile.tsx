import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { Truck } from "lucide-react";
import type { Product } from "@voltio/domain/catalog";
import { priceToday } from "@voltio/domain/pricing";
import type { SaleTerms } from "@voltio/domain/discount";
import type { Weekday } from "@voltio/domain/weekday";
import { ListToggleButton } from "../ListToggleButton";
import { Card } from "./Card";
import { DiscountBadge } from "./DiscountBadge";
import { PriceTag } from "./PriceTag";
import { RatingSummary } from "./Stars";

interface ProductTileProps {
  product: Product;
  globalSales: readonly SaleTerms[];
  today: Weekday | undefined;
  /** The first cards of a page are likely the largest paint: load their pictures at once. */
  eager?: boolean;
  /** Drawn above the price: the listing's colour swatches and 'From' (issue 41). */
  extra?: ReactNode;
}

/**
 * One product in a listing grid or a carousel (the product card). The title link stretches over the whole card; the heart and cart
 * buttons sit above it, so each control stays a separate stop for keyboard and screen-reader users.
 */
export function ProductTile({ product, globalSales, today, eager = false, extra }: ProductTileProps) {
  const { t } = useTranslation();
  const price = priceToday(product, globalSales, today);
  const image = product.images[0];
  return (
    <Card
      as="article"
      raised
      className="group relative flex h-full flex-col overflow-hidden transition hover:-translate-y-0.5 hover:shadow-lg motion-reduce:hover:translate-y-0"
    >
      <div className="relative aspect-[4/3] overflow-hidden bg-accent-soft">
        {image && (
          <img
            src={image.url}
            alt=""
            width={400}
            height={300}
            loading={eager ? "eager" : "lazy"}
            decoding="async"
            className="h-full w-full object-contain transition duration-300 group-hover:scale-105 motion-reduce:group-hover:scale-100"
          />
        )}
        <div className="absolute top-2 right-2 z-10 flex flex-col gap-1.5">
          <ListToggleButton list="inWishList" product={product} />
          <ListToggleButton list="inCart" product={product} />
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-3 sm:gap-2 sm:p-4">
        <h3 className="line-clamp-2 min-h-10 text-[13px] leading-5 font-medium text-ink sm:text-sm">
          <Link
            to={`/product/${product.id}`}
            className="after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-accent"
          >
            {product.title}
          </Link>
        </h3>
        <RatingSummary rating={product.rating} size={12} />
        <p className="flex items-center gap-1 text-xs text-muted">
          {product.shippingCost === 0 ? (
            <>
              <Truck size={14} aria-hidden className="text-success" />
              <span className="font-medium text-success">{t("catalog.freeShipping")}</span>
            </>
          ) : (
            t("catalog.shipping", { cost: product.shippingCost.toFixed(2) })
          )}
        </p>
        {/* Under the picture, by the price: a long badge ('100% OFF en la 3ª unidad') wraps here on a phone
            without covering the picture. */}
        <div className="mt-auto flex flex-col items-start gap-1.5 pt-1">
          {price.sale && <DiscountBadge sale={price.sale} />}
          {extra}
          <PriceTag price={price} />
        </div>
      </div>
    </Card>
  );
}

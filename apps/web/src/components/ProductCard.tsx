import { Link } from "react-router";
import type { Product } from "@voltio/domain/catalog";
import type { SaleTerms } from "@voltio/domain/discount";
import type { Weekday } from "@voltio/domain/weekday";
import { PriceTag } from "./ui/PriceTag";

interface ProductCardProps {
  product: Product;
  globalSales: SaleTerms[];
  today: Weekday | undefined;
}

export function ProductCard({ product, globalSales, today }: ProductCardProps) {
  const image = product.images[0];
  return (
    <article className="group flex flex-col overflow-hidden rounded-2xl border border-line bg-card shadow-sm transition hover:shadow-md">
      <Link
        to={`/product/${product.id}`}
        className="flex flex-1 flex-col focus-visible:outline-2 focus-visible:outline-accent"
      >
        <div className="aspect-[4/3] overflow-hidden bg-accent-soft">
          {image && (
            <img
              src={image.url}
              alt={image.altText}
              width={400}
              height={300}
              loading="lazy"
              className="h-full w-full object-cover transition group-hover:scale-105"
            />
          )}
        </div>
        <div className="flex flex-1 flex-col gap-2 p-4">
          <h3 className="line-clamp-2 text-sm font-medium text-ink">{product.title}</h3>
          <div className="mt-auto">
            <PriceTag product={product} globalSales={globalSales} today={today} />
          </div>
        </div>
      </Link>
    </article>
  );
}

import type { ReactNode } from "react";
import { Link } from "react-router";
import type { OrderedProduct } from "@voltio/domain/orders";
import { formatDollars } from "@voltio/domain/money";
import { focusRingClass } from "@/components/ui/focus-ring";

// The Overview's four-across grid wants the picture above the text; the purchases list, beside its details.
const LAYOUTS = {
  stacked: {
    link: "flex-col gap-2 transition",
    picture: { width: 160, height: 120, className: "h-24 w-full" },
  },
  beside: {
    link: "gap-3",
    picture: { width: 64, height: 64, className: "h-16 w-16 shrink-0" },
  },
} as const;

export interface OrderedProductTileProps {
  product: OrderedProduct;
  /** In dollars: the product's price today, or what a purchase paid for each unit. */
  price: number;
  layout: keyof typeof LAYOUTS;
  /** More about the order under the price (the purchases list's amount, number and status). */
  children?: ReactNode;
}

/** A product of the shopper's lists or purchases, linking to its page: the profile's Overview and /purchases. */
export function OrderedProductTile({ product, price, layout, children }: OrderedProductTileProps) {
  const { link, picture } = LAYOUTS[layout];
  return (
    <Link
      to={`/product/${product.id}`}
      className={`flex h-full ${link} rounded-2xl border border-line p-3 hover:border-accent ${focusRingClass}`}
    >
      <img
        src={product.images[0]?.url}
        alt=""
        width={picture.width}
        height={picture.height}
        loading="lazy"
        className={`${picture.className} rounded-lg object-contain`}
      />
      {layout === "stacked" ? (
        <>
          <span className="line-clamp-2 text-sm text-ink">{product.title}</span>
          <span className="mt-auto font-semibold text-ink">US$ {formatDollars(price)}</span>
          {children}
        </>
      ) : (
        <span className="flex min-w-0 flex-col items-start gap-0.5 text-sm">
          <span className="line-clamp-2 text-ink">{product.title}</span>
          <span className="font-semibold text-ink">US$ {formatDollars(price)}</span>
          {children}
        </span>
      )}
    </Link>
  );
}

import type { Product } from "@voltio/domain/catalog";
import { bestSale, type SaleTerms } from "@voltio/domain/discount";
import { toCents } from "@voltio/domain/money";
import type { OrderedProduct, ProductOrder } from "@voltio/domain/orders";
import { linePriceCents, priceToday, type PriceToday } from "@voltio/domain/pricing";
import type { Weekday } from "@voltio/domain/weekday";
import { useEffect } from "react";
import { productDescription, usePricingContext } from "./catalog";
import { completeGuestDescriptions, useGuestList, type GuestLine, type GuestListName } from "./guest-lists";
import { LIST_STATUSES_KEY, lineOf, useOrders } from "./orders";
import { useSession } from "./session";

/**
 * One cart or wishlist line as every screen shows it (header previews, /cart, /wishlist), whoever keeps it:
 * a signed-in shopper's line comes from GET /order, priced by the server; a guest's from localStorage,
 * priced in the browser by the same engine (packages/domain). Screens read this shape only, so a guest and a
 * shopper see the same page.
 */
export interface ListLine {
  productId: number;
  /** The variant the line sells; a guest's line added without choosing one has none (the server's default). */
  variantId?: number;
  /** The server's order id; a guest's line has none (it is known by its product). */
  orderId: number | null;
  title: string;
  description: string;
  image: string | undefined;
  amount: number;
  stock: number;
  shippingCents: number;
  /** One unit today: the sale, the original and what a unit costs. Null while a guest's pricing loads. */
  price: PriceToday | null;
  /** The whole line, 'on Nth unit' sales applied. Null while a guest's pricing loads. */
  totalCents: number | null;
  /** What a guest's line keeps about its product: enough to put it into the other list. */
  snapshot: Pick<
    Product,
    "id" | "title" | "price" | "shippingCost" | "stock" | "description" | "images" | "sales"
  >;
}

/**
 * The sale behind a server line's percentage, for its badge: the server sends the percentage, the browser
 * knows which of today's sales has it (and so its 'on Nth unit'). Unknown to the browser → the percentage
 * alone, on every unit.
 */
export function saleOfServerLine(
  product: Pick<Product, "sales">,
  percentage: number | null,
  globalSales: readonly SaleTerms[],
  today: Weekday | undefined,
): SaleTerms | null {
  if (percentage === null) return null;
  const best = today ? bestSale(product.sales, globalSales, today) : null;
  if (best && best.percentage === percentage) return best;
  return { id: 0, percentage, day: "all", productAmount: 0 };
}

export function serverListLine(
  product: OrderedProduct,
  line: ProductOrder,
  globalSales: readonly SaleTerms[],
  today: Weekday | undefined,
): ListLine {
  // The line sells one variant (issue 41): its name, stock, price and pictures, not the product's.
  const variant = product.variants?.find((candidate) => candidate.id === line.variantId);
  return {
    productId: product.id,
    variantId: line.variantId,
    orderId: line.id,
    title: line.variant?.name ?? product.title,
    description: product.description,
    image: variant?.images[0]?.url ?? product.images[0]?.url,
    amount: line.amount,
    stock: variant?.stock ?? product.stock,
    shippingCents: toCents(line.shipping),
    price: {
      sale: saleOfServerLine(product, line.salePercentage, globalSales, today),
      originalCents: toCents(variant?.price ?? product.price),
      unitCents: toCents(line.unitPrice),
    },
    totalCents: toCents(line.lineTotal),
    snapshot: product,
  };
}

export function guestListLine(line: GuestLine, price: PriceToday | null): ListLine {
  return {
    productId: line.productId,
    variantId: line.variantId,
    orderId: null,
    title: line.title,
    description: line.description,
    image: line.images[0]?.url,
    amount: line.amount,
    stock: line.stock,
    shippingCents: toCents(line.shippingCost),
    price,
    totalCents: price && linePriceCents(price, line.amount),
    snapshot: { ...line, id: line.productId },
  };
}

/** The line's total at another amount, by the same engine: what an optimistic plus or minus shows. */
export function totalAtAmount(line: ListLine, amount: number): number | null {
  return line.price && linePriceCents(line.price, amount);
}

/**
 * The cart or the wishlist: the signed-in shopper's from the server (never localStorage), a guest's from the
 * browser. `priced: false` spares the sales request until a price is shown (the header's closed preview).
 * Admins have no lists (docs/product-rules.md §11.1): theirs is always empty.
 */
export function useListLines(list: GuestListName, { priced = true }: { priced?: boolean } = {}) {
  const { user, isAdmin, pending: sessionPending } = useSession();
  const onServer = Boolean(user) && !isAdmin;
  const guestLines = useGuestList(list);
  const orders = useOrders(LIST_STATUSES_KEY, { enabled: onServer });
  const { today, globalSales, ready } = usePricingContext({ enabled: priced });
  const missingDescription = !onServer && guestLines.some((line) => line.description === "");
  useEffect(() => {
    if (missingDescription) completeGuestDescriptions(list, productDescription);
  }, [list, missingDescription]);

  let lines: ListLine[];
  if (isAdmin) lines = [];
  else if (onServer) {
    lines = (orders.data ?? []).flatMap((product) => {
      const line = lineOf(product, list);
      return line ? [serverListLine(product, line, globalSales, today)] : [];
    });
  } else {
    lines = guestLines.map((line) =>
      guestListLine(line, priced && ready ? priceToday(line, globalSales, today) : null),
    );
  }
  return {
    lines,
    onServer,
    /** Still finding out what the list holds or what it costs. */
    isPending: sessionPending || (onServer && orders.isPending) || (priced && !ready),
    isError: onServer && orders.isError,
    refetch: orders.refetch,
  };
}

import type { PendingLine } from "@voltio/domain/checkout";
import { toCents } from "@voltio/domain/money";
import type { OrderedProduct, ProductOrder } from "@voltio/domain/orders";

/** A pending line on the screen: the product, its order line, and the snapshot the charge is built from. */
export interface Line {
  product: OrderedProduct;
  order: ProductOrder;
  pending: PendingLine;
  /** Gathered in a bulk order: the shopper can neither remove nor change it, only take it back to the cart. */
  bulk: boolean;
}

export const lineOf = (product: OrderedProduct, order: ProductOrder, bulk = false): Line => ({
  product,
  order,
  bulk,
  pending: {
    // What the line sells: "Logitech M720 — Black" (the product's title alone when sold one way).
    title: order.variant?.name ?? product.title,
    amount: order.amount,
    unitPriceCents: toCents(order.unitPrice),
    lineTotalCents: toCents(order.lineTotal),
    shippingCents: toCents(order.shipping),
    salePercentage: order.salePercentage,
    discountedUnits: order.discountedUnits,
  },
});

export interface LineActions {
  onBackToCart: (line: Line) => void;
  /** A line is on its way back to the cart: no other change meanwhile. */
  busy: boolean;
}

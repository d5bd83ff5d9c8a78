import type { OrderStatus, OrderedProduct } from "@voltio/domain/orders";
import { PURCHASE_STATUSES } from "@voltio/domain/order-status";
import { useOrders } from "@/api/orders";

/** What the profile shows of a line of GET /order: the product with its order entries (docs/product-rules.md §10). */
export type OrderProduct = OrderedProduct;

export type OverviewList = "inWishList" | "inCart" | "purchases";

const statusesOf = (list: OverviewList): readonly OrderStatus[] =>
  list === "purchases" ? PURCHASE_STATUSES : [list];

/** The signed-in shopper's wishlist, cart or purchases (docs/product-rules.md §1 Overview, §10.6) from GET /order. */
export function useOrderList(list: OverviewList) {
  return useOrders(statusesOf(list));
}

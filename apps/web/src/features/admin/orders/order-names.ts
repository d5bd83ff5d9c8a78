import type { Translate } from "@/i18n";
import type { AdminOrder } from "@voltio/domain/admin-orders";

/** Single and bulk orders have ids of their own: the kind keeps their keys apart. */
export const keyOf = (order: Pick<AdminOrder, "id" | "kind">) => `${order.kind}-${order.id}`;

/** 'Order #12' or 'Bulk order #3'. */
export const nameOf = (t: Translate, order: Pick<AdminOrder, "id" | "kind">) =>
  t(order.kind === "bulk" ? "admin.orders.bulkOf" : "admin.orders.orderOf", { id: order.id });

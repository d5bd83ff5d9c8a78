import { keepPreviousData, useQuery, type QueryClient } from "@tanstack/react-query";
import type {
  AdminOrder,
  AdminOrderFilters,
  AdminOrderPage,
  AdminOrderStatus,
} from "@voltio/domain/admin-orders";
import { apiFetch, toQuery } from "@/api/client";
import { SESSION_KEY } from "@/api/session-key";
import { ADMIN_KEY } from "../api";

export type OrderFilters = Pick<AdminOrderFilters, "status" | "userId" | "flagged" | "search">;

/** Shipping (onDelivery) may name the parcel: the shopper's e-mail and order page show it. */
export interface Tracking {
  trackingNumber?: string;
  carrier?: string;
}

const ORDERS_KEY = [...ADMIN_KEY, "orders"] as const;

/** GET /order/admin/bulk ?userId &status &flagged &page: one page of every shopper's purchases. */
export function useAdminOrders(filters: OrderFilters & { page: number }) {
  return useQuery({
    queryKey: [...ORDERS_KEY, filters],
    queryFn: ({ signal }) => apiFetch<AdminOrderPage>(`/order/admin/bulk${toQuery(filters)}`, { signal }),
    // The table stays in place while the next page or filter loads, instead of blinking to 'Loading…'.
    placeholderData: keepPreviousData,
  });
}

/**
 * PUT /order/admin/:id or PUT /order/bulk/:id {status, trackingNumber?, carrier?}: a bulk order moves with
 * all its lines.
 */
export function changeOrderStatus(
  order: Pick<AdminOrder, "id" | "kind">,
  status: AdminOrderStatus,
  tracking: Tracking = {},
) {
  const path = order.kind === "bulk" ? `/order/bulk/${order.id}` : `/order/admin/${order.id}`;
  const sent = status === "onDelivery" ? tracking : {};
  return apiFetch<unknown>(path, { method: "PUT", body: JSON.stringify({ status, ...sent }) });
}

/** After a status change: the list, and the figures of the dashboard and the stock it may have moved. */
export const afterStatusChange = (client: QueryClient) =>
  Promise.all(
    [ORDERS_KEY, [...ADMIN_KEY, "stats"], ["products"], ["product"], [...SESSION_KEY, "orders"]].map(
      (queryKey) => client.invalidateQueries({ queryKey }),
    ),
  );

/**
 * GET /order/admin/export with the list's filters. The call needs the bearer token, so a plain link can't
 * download it: the CSV is fetched with the API client and saved from a Blob.
 */
export async function downloadOrdersCsv(filters: OrderFilters, fileName: string) {
  const csv = await apiFetch<unknown>(`/order/admin/export${toQuery(filters)}`);
  const text = typeof csv === "string" ? csv : JSON.stringify(csv);
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: the download has started by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

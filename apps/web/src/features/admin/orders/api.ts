import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import type {
  AdminOrder,
  AdminOrderFilters,
  AdminOrderPage,
  AdminOrderStatus,
} from "@voltio/domain/admin-orders";
import { saveCsv } from "../download";
import { apiFetch, toQuery } from "@/api/client";
import type { ScreenCallbacks } from "@/api/screen-callbacks";
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

/** After a status change, made or refused: the list, and the dashboard's figures and the stock it may move. */
const afterStatusChange = (client: QueryClient) =>
  Promise.all(
    [ORDERS_KEY, [...ADMIN_KEY, "stats"], ["products"], ["product"], [...SESSION_KEY, "orders"]].map(
      (queryKey) => client.invalidateQueries({ queryKey }),
    ),
  );

export interface StatusChange {
  order: Pick<AdminOrder, "id" | "kind">;
  status: AdminOrderStatus;
  tracking?: Tracking;
}

/**
 * PUT /order/admin/:id or PUT /order/bulk/:id {status, trackingNumber?, carrier?}: a bulk order moves with
 * all its lines. The screen's onSettled runs once the list has been read again.
 */
export function useChangeOrderStatus<V extends StatusChange>(screen: ScreenCallbacks<unknown, V> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...screen,
    mutationFn: ({ order, status, tracking = {} }: V) => {
      const path = order.kind === "bulk" ? `/order/bulk/${order.id}` : `/order/admin/${order.id}`;
      const sent = status === "onDelivery" ? tracking : {};
      return apiFetch<unknown>(path, { method: "PUT", body: JSON.stringify({ status, ...sent }) });
    },
    onSettled: async (...args) => {
      await afterStatusChange(client);
      await screen.onSettled?.(...args);
    },
  });
}

/**
 * GET /order/admin/export with the list's filters. The call needs the bearer token, so a plain link can't
 * download it: the CSV is fetched with the API client and saved from a Blob.
 */
export function useDownloadOrdersCsv() {
  return useMutation({
    mutationFn: async ({ filters, fileName }: { filters: OrderFilters; fileName: string }) => {
      const csv = await apiFetch<unknown>(`/order/admin/export${toQuery(filters)}`);
      saveCsv(typeof csv === "string" ? csv : JSON.stringify(csv), fileName);
    },
  });
}

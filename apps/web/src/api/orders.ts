import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type {
  ListStatus,
  OrderLine,
  OrderStatus,
  OrderUpdateReply,
  OrderedProduct,
} from "@voltio/domain/orders";
import { ApiError, apiFetch } from "./client";
import { SESSION_KEY } from "./session-key";

/**
 * The signed-in shopper's order lines on the server (SPEC.md §4, §7; issue 9): typed calls to /order and the
 * query hooks over them. Every key lives under ["user", "orders"], so logout and login reset them.
 */
export const ORDERS_KEY = [...SESSION_KEY, "orders"] as const;

/** SPEC.md §7: the purchase history asks for these statuses. */
export const PURCHASE_STATUSES: readonly OrderStatus[] = [
  "pending",
  "finished",
  "preparing",
  "onDelivery",
  "delivered",
];

/** The cart and the wishlist together: what the toggles and the header previews read. */
export const LIST_STATUSES_KEY: readonly OrderStatus[] = ["inCart", "inWishList"];

export const ordersKey = (statuses: readonly OrderStatus[]) => [...ORDERS_KEY, statuses.join(",")] as const;

/** GET /order?status=…: products with their lines of those statuses. "No orders" (404) reads as []. */
export async function fetchOrders(statuses: readonly OrderStatus[], signal?: AbortSignal) {
  try {
    const reply = await apiFetch<OrderedProduct[] | { msg?: string }>(`/order?status=${statuses.join(",")}`, {
      signal,
    });
    return Array.isArray(reply) ? reply : [];
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export const addOrder = (body: { status: ListStatus; productId: number; amount?: number }) =>
  apiFetch<OrderLine>("/order", { method: "POST", body: JSON.stringify({ amount: 1, ...body }) });

export const changeOrderAmount = (id: number, amount: 1 | -1) =>
  apiFetch<OrderUpdateReply>(`/order/${id}`, { method: "PUT", body: JSON.stringify({ amount }) });

export const moveOrder = (id: number, status: "inCart" | "pending", date?: string) =>
  apiFetch<OrderUpdateReply>(`/order/${id}`, { method: "PUT", body: JSON.stringify({ status, date }) });

export const removeOrder = (id: number) => apiFetch<{ msg: string }>(`/order/${id}`, { method: "DELETE" });

/** The shopper's products with lines of these statuses. */
export function useOrders(statuses: readonly OrderStatus[], { enabled = true } = {}) {
  return useQuery({
    queryKey: ordersKey(statuses),
    queryFn: ({ signal }) => fetchOrders(statuses, signal),
    staleTime: 30_000,
    enabled,
  });
}

/** Any change to a line can move it between lists: every order query reads again. */
export const refreshOrders = (client: QueryClient) => client.invalidateQueries({ queryKey: ORDERS_KEY });

function useOrderMutation<T, V>(call: (variables: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => refreshOrders(client) });
}

export const useAddOrder = () => useOrderMutation(addOrder);
export const useRemoveOrder = () => useOrderMutation(removeOrder);
export const useChangeOrderAmount = () =>
  useOrderMutation(({ id, amount }: { id: number; amount: 1 | -1 }) => changeOrderAmount(id, amount));
export const useMoveOrder = () =>
  useOrderMutation(({ id, status, date }: { id: number; status: "inCart" | "pending"; date?: string }) =>
    moveOrder(id, status, date),
  );

/** The line of this status of a product, if the shopper has one. */
export const lineOf = (product: OrderedProduct, status: OrderStatus) =>
  product.orders.find((order) => order.status === status);

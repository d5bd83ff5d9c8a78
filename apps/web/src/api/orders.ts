import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type {
  BulkOrderReply,
  ListStatus,
  OrderLine,
  OrderStatus,
  OrderUpdateReply,
  OrderedProduct,
  ProductOrder,
} from "@voltio/domain/orders";
import { ApiError, apiFetch } from "./client";
import type { ScreenCallbacks } from "./screen-callbacks";
import { SESSION_KEY } from "./session-key";

/**
 * The signed-in shopper's order lines on the server (docs/product-rules.md §8, §10.6): typed calls to /order and the
 * query hooks over them. Every key lives under ["user", "orders"], so logout and login reset them.
 */
export const ORDERS_KEY = [...SESSION_KEY, "orders"] as const;

/** The cart and the wishlist together: what the toggles and the header previews read. */
export const LIST_STATUSES_KEY: readonly OrderStatus[] = ["inCart", "inWishList"];

export const ordersKey = (statuses: readonly OrderStatus[]) => [...ORDERS_KEY, statuses.join(",")] as const;

/**
 * GET /order?status=…: products with their single lines of those statuses. "No orders" (404) reads as [].
 * The reply also lists bulk orders' lines (for SPEC's client); this app shows those with their bulk order
 * (GET /order/bulk), so they are left out here.
 */
export async function fetchOrders(statuses: readonly OrderStatus[], signal?: AbortSignal) {
  try {
    const reply = await apiFetch<OrderedProduct[] | { msg?: string }>(`/order?status=${statuses.join(",")}`, {
      signal,
    });
    if (!Array.isArray(reply)) return [];
    return reply
      .map((product) => ({ ...product, orders: product.orders.filter((line) => line.bulkOrderId === null) }))
      .filter((product) => product.orders.length > 0);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

/** `variantId`: the variant chosen (issue 41); without it the server adds the product's default variant. */
export const addOrder = (body: {
  status: ListStatus;
  productId: number;
  variantId?: number;
  amount?: number;
}) => apiFetch<OrderLine>("/order", { method: "POST", body: JSON.stringify({ amount: 1, ...body }) });

export const changeOrderAmount = (id: number, amount: 1 | -1) =>
  apiFetch<OrderUpdateReply>(`/order/${id}`, { method: "PUT", body: JSON.stringify({ amount }) });

export const moveOrder = (id: number, status: "inCart" | "pending", date?: string) =>
  apiFetch<OrderUpdateReply>(`/order/${id}`, { method: "PUT", body: JSON.stringify({ status, date }) });

export const removeOrder = (id: number) => apiFetch<{ msg: string }>(`/order/${id}`, { method: "DELETE" });

/**
 * Buy now (product page, wishlist card): a pending line of one unit straight away (or `amount` units: the
 * checkout cutting a line down to what is left). The server reads the price from the catalogue and
 * snapshots it.
 */
export const addPendingOrder = (productId: number, date: string, amount = 1, variantId?: number) =>
  apiFetch<OrderLine>("/order", {
    method: "POST",
    body: JSON.stringify({ status: "pending", productId, variantId, amount, date }),
  });

/** Buy All: one cart line becomes pending; several become one bulk order (docs/product-rules.md §8 Buy flow). */
export async function buyCartLines(orderIds: readonly number[], date: string): Promise<void> {
  if (orderIds.length === 1) await moveOrder(orderIds[0]!, "pending", date);
  else
    await apiFetch<BulkOrderReply>("/order/bulk", {
      method: "POST",
      body: JSON.stringify({ orderIds, date }),
    });
}

/**
 * What is being bought: one unit of a product (Buy now), a wishlist line (Buy on its card: the line itself
 * becomes the purchase and leaves the wishlist), or the cart's lines (Buy All).
 */
export type BuyTarget =
  | { productId: number; variantId?: number; amount?: number }
  | { wishlistOrderId: number }
  | { cartOrderIds: readonly number[] };

/**
 * The purchase's line(s) become pending, dated by the shopper's own clock and zone (what the purchase history
 * headings read). The reply is the pending line a checkout pays alone, or null after Buy All (everything
 * waiting to be paid). Whatever happened, the order lists are read again.
 */
export function usePlaceOrder(screen: ScreenCallbacks<number | null, BuyTarget> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...screen,
    mutationFn: async (target: BuyTarget) => {
      const date = new Date().toString();
      if ("productId" in target)
        return (await addPendingOrder(target.productId, date, target.amount, target.variantId)).id;
      if ("wishlistOrderId" in target)
        return (await moveOrder(target.wishlistOrderId, "pending", date)).order?.id ?? target.wishlistOrderId;
      await buyCartLines(target.cartOrderIds, date);
      return null;
    },
    onSettled: async (...args) => {
      await refreshOrders(client);
      await screen.onSettled?.(...args);
    },
  });
}

export const bulkOrdersKey = (statuses: readonly OrderStatus[]) =>
  [...ORDERS_KEY, "bulk", statuses.join(",")] as const;

/** GET /order/bulk?status=…: the shopper's bulk orders, each with its lines and combined prices. */
export function useBulkOrders(statuses: readonly OrderStatus[], { enabled = true } = {}) {
  return useQuery({
    queryKey: bulkOrdersKey(statuses),
    queryFn: async ({ signal }) => {
      const reply = await apiFetch<BulkOrderReply[]>(`/order/bulk?status=${statuses.join(",")}`, { signal });
      return Array.isArray(reply) ? reply : [];
    },
    staleTime: 30_000,
    enabled,
  });
}

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

type ListPatch = (products: OrderedProduct[]) => OrderedProduct[];

/**
 * A change to a cart or wishlist line that the screens show at once (the cached lists are patched before the
 * server answers) and undo if the server refuses; then every order query reads again. The caller toasts the
 * refusal, whose message the server words (a 409 says how many units are left).
 */
function useOptimisticListChange<V>(
  call: (variables: V) => Promise<unknown>,
  patch: (variables: V) => ListPatch,
) {
  const client = useQueryClient();
  const key = ordersKey(LIST_STATUSES_KEY);
  return useMutation({
    mutationFn: call,
    onMutate: async (variables: V) => {
      // A read already on its way would overwrite the patch with the old lines.
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<OrderedProduct[]>(key);
      if (previous) client.setQueryData(key, patch(variables)(previous));
      return { previous };
    },
    onError: (_error, _variables, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
    },
    onSettled: () => refreshOrders(client),
  });
}

/** The products with one line changed (or dropped when `change` returns null); a product left without lines goes. */
function patchLine(id: number, change: (line: ProductOrder) => ProductOrder | null): ListPatch {
  return (products) =>
    products.flatMap((product) => {
      if (!product.orders.some((order) => order.id === id)) return [product];
      const orders = product.orders.flatMap((order) => {
        if (order.id !== id) return [order];
        const changed = change(order);
        return changed ? [changed] : [];
      });
      return orders.length ? [{ ...product, orders }] : [];
    });
}

/**
 * Plus and minus on a signed-in shopper's cart line. `lineTotal` is the line's total at the new amount as the
 * browser prices it, shown until the server's own arrives; below 1 the line goes, as on the server.
 */
export const useChangeCartAmount = () =>
  useOptimisticListChange(
    ({ id, amount }: { id: number; amount: 1 | -1; lineTotal?: number }) => changeOrderAmount(id, amount),
    ({ id, amount, lineTotal }) =>
      patchLine(id, (line) =>
        line.amount + amount < 1
          ? null
          : {
              ...line,
              amount: line.amount + amount,
              lineTotal: lineTotal ?? line.unitPrice * (line.amount + amount),
            },
      ),
  );

/** The x on a cart or wishlist line. */
export const useRemoveListLine = () =>
  useOptimisticListChange(
    (id: number) => removeOrder(id),
    (id) => patchLine(id, () => null),
  );

/** 'Add to cart' on a wishlist card: the line leaves the wishlist at once; the cart line comes with the reread. */
export const useMoveToCart = () =>
  useOptimisticListChange(
    (id: number) => moveOrder(id, "inCart"),
    (id) => patchLine(id, () => null),
  );

/** The line of this status of a product, if the shopper has one. */
export const lineOf = (product: OrderedProduct, status: OrderStatus) =>
  product.orders.find((order) => order.status === status);

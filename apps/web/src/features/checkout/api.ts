import { useEffect } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FeedbackReply, PayReply, PaymentProviderName } from "@voltio/domain/payments";
import { apiFetch } from "@/api/client";
import { addPendingOrder, moveOrder, refreshOrders, removeOrder } from "@/api/orders";
import type { ScreenCallbacks } from "@/api/screen-callbacks";
import { SESSION_KEY } from "@/api/session-key";
import { shortageOf } from "./shortage";

/** One item of POST /{provider}/pay as docs/product-rules.md §10.6 words it; the server charges its own prices anyway. */
export interface PayItem {
  title: string;
  amount: number;
  price: number;
}

export interface Payment {
  provider: PaymentProviderName;
  body: {
    items: PayItem[];
    baseURL: string;
    directionId?: number;
    orderIds: number[];
    bulkOrderIds: number[];
  };
}

/**
 * POST /{provider}/pay: the provider's checkout for the chosen pending lines and bulk orders (ADR 0015), and
 * where to pay it. Refused for any reason but a shortage (which the screen fixes, reading them again then),
 * the pending orders are read again: they may have changed elsewhere (another tab paid or took a line back).
 */
export function useStartPayment(screen: ScreenCallbacks<PayReply, Payment> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...screen,
    mutationFn: ({ provider, body }: Payment) =>
      apiFetch<PayReply>(`/${provider}/pay`, { method: "POST", body: JSON.stringify(body) }),
    onError: async (...args) => {
      await screen.onError?.(...args);
      if (!shortageOf(args[0])) await refreshOrders(client);
    },
  });
}

/**
 * Lines back to the cart, one by one (the server merges them into the cart's lines); then the order lists are
 * read again.
 */
export function useBackToCart(screen: ScreenCallbacks<void, readonly number[]> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...screen,
    mutationFn: async (orderIds: readonly number[]) => {
      for (const id of orderIds) await moveOrder(id, "inCart");
    },
    onSettled: async (...args) => {
      await refreshOrders(client);
      await screen.onSettled?.(...args);
    },
  });
}

/** A purchase cut down to what other shoppers' checkouts left of a product (shortage.ts: shortageFix). */
export interface ShortageRepair {
  productId: number;
  variantId?: number;
  /** The product's lines bought alone: they go. */
  removeIds: readonly number[];
  /** With room left, one pending line of this many units replaces them. */
  cutTo: number | null;
}

/**
 * Removes the short product's lines, then adds the line cut to what is left: its id, or null when nothing
 * replaced them. Whatever happened, the lists are read again.
 */
export function useRepairShortage<V extends ShortageRepair>(screen: ScreenCallbacks<number | null, V> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...screen,
    mutationFn: async ({ productId, variantId, removeIds, cutTo }: V) => {
      for (const id of removeIds) await removeOrder(id);
      if (cutTo === null) return null;
      return (await addPendingOrder(productId, new Date().toString(), cutTo, variantId)).id;
    },
    onSettled: async (...args) => {
      await refreshOrders(client);
      await screen.onSettled?.(...args);
    },
  });
}

/**
 * GET /{provider}/feedback with the return page's query string: the server asks the provider what became of
 * the payment (and finishes the orders when it was approved). Read once per return address. Once its status
 * is known the orders have changed on the server: the cart, checkout and purchases read them again.
 */
export function usePaymentFeedback(provider: PaymentProviderName | undefined, search: string) {
  const client = useQueryClient();
  const feedback = useQuery({
    queryKey: [...SESSION_KEY, "payment-feedback", provider, search],
    queryFn: ({ signal }) => apiFetch<FeedbackReply>(`/${provider}/feedback${search}`, { signal }),
    enabled: provider !== undefined && search.length > 1,
    staleTime: Infinity,
    retry: false,
  });
  const status = feedback.data?.Status;
  useEffect(() => {
    if (status) void refreshOrders(client);
  }, [status, client]);
  return feedback;
}

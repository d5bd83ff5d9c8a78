import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import type { AdminPaymentPage, RefundBody, RefundReply } from "@voltio/domain/payments";
import { apiFetch, toQuery } from "@/api/client";
import type { ScreenCallbacks } from "@/api/screen-callbacks";
import { SESSION_KEY } from "@/api/session-key";
import { ADMIN_KEY } from "../api";

/** The list's filters as the URL holds them: 'needing attention only' is the one value it sends. */
export type PaymentFilters = {
  userId?: number;
  attention?: true;
};

const PAYMENTS_KEY = [...ADMIN_KEY, "payments"] as const;

/**
 * GET /payment/admin ?userId &attention &page: one page of payments, those needing attention first. While
 * `pollWhile` holds for the page read, it is read again every 2 s (a refund the provider hasn't taken yet).
 */
export function useAdminPayments(
  filters: PaymentFilters & { page: number },
  pollWhile: (page: AdminPaymentPage) => boolean = () => false,
) {
  return useQuery({
    queryKey: [...PAYMENTS_KEY, "list", filters],
    queryFn: ({ signal }) => apiFetch<AdminPaymentPage>(`/payment/admin${toQuery(filters)}`, { signal }),
    // The table stays in place while the next page or filter loads, instead of blinking to 'Loading…'.
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data && pollWhile(query.state.data) ? 2000 : false),
  });
}

/** How many payments need the owner's attention: the total of a one-row page of them. */
export function usePaymentsNeedingAttention() {
  return useQuery({
    queryKey: [...PAYMENTS_KEY, "attention-count"],
    queryFn: ({ signal }) =>
      apiFetch<AdminPaymentPage>(`/payment/admin${toQuery({ attention: true, limit: 1 })}`, { signal }),
    select: (page) => page.total,
  });
}

/**
 * After a refund: the payments and their count, and — a full refund cancels the purchase and puts its units
 * back — the orders, the dashboard's figures and the stock the catalogue shows.
 */
const afterRefund = (client: QueryClient) =>
  Promise.all(
    [
      PAYMENTS_KEY,
      [...ADMIN_KEY, "orders"],
      [...ADMIN_KEY, "stats"],
      ["products"],
      ["product"],
      [...SESSION_KEY, "orders"],
    ].map((queryKey) => client.invalidateQueries({ queryKey })),
  );

/**
 * POST /payment/admin/:id/refund {amount?, reason}: all that is left when `amount` is left out. The screen's
 * onSuccess runs before the lists are read again.
 */
export function useRefundPayment(
  screen: ScreenCallbacks<RefundReply, { id: number; body: RefundBody }> = {},
) {
  const client = useQueryClient();
  return useMutation({
    ...screen,
    mutationFn: ({ id, body }: { id: number; body: RefundBody }) =>
      apiFetch<RefundReply>(`/payment/admin/${id}/refund`, { method: "POST", body: JSON.stringify(body) }),
    onSuccess: async (...args) => {
      await screen.onSuccess?.(...args);
      await afterRefund(client);
    },
  });
}

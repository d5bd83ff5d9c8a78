import { useQuery } from "@tanstack/react-query";
import type { FeedbackReply, PayReply, PaymentProviderName } from "@voltio/domain/payments";
import { apiFetch } from "@/api/client";
import { SESSION_KEY } from "@/api/session-key";

/** One item of POST /{provider}/pay as SPEC.md §7 words it; the server charges its own prices anyway. */
export interface PayItem {
  title: string;
  amount: number;
  price: number;
}

/**
 * POST /{provider}/pay: the provider's checkout for the chosen pending lines and bulk orders (ADR 0015), and
 * where to pay it.
 */
export const startPayment = (
  provider: PaymentProviderName,
  body: {
    items: PayItem[];
    baseURL: string;
    directionId?: number;
    orderIds: number[];
    bulkOrderIds: number[];
  },
) => apiFetch<PayReply>(`/${provider}/pay`, { method: "POST", body: JSON.stringify(body) });

/**
 * GET /{provider}/feedback with the return page's query string: the server asks the provider what became of
 * the payment (and finishes the orders when it was approved). Read once per return address.
 */
export function usePaymentFeedback(provider: PaymentProviderName | undefined, search: string) {
  return useQuery({
    queryKey: [...SESSION_KEY, "payment-feedback", provider, search],
    queryFn: ({ signal }) => apiFetch<FeedbackReply>(`/${provider}/feedback${search}`, { signal }),
    enabled: provider !== undefined && search.length > 1,
    staleTime: Infinity,
    retry: false,
  });
}

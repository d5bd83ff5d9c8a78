import { useQuery } from "@tanstack/react-query";
import type { Customer } from "@voltio/domain/customer";
import { apiFetch } from "@/api/client";
import { ADMIN_KEY } from "../api";

/** GET /user/admin/:id/customer: one customer as the back office sees them. */
export function useCustomer(id: number | undefined) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "customer", id],
    queryFn: ({ signal }) => apiFetch<Customer>(`/user/admin/${id}/customer`, { signal }),
    enabled: id !== undefined,
  });
}

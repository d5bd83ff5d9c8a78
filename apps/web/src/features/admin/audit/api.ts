import { useQuery } from "@tanstack/react-query";
import type { AdminUserPage } from "@voltio/domain/account";
import type { AuditEntity, AuditPage } from "@voltio/domain/audit";
import { PAGE_LIMIT_MAX } from "@voltio/domain/http";
import { apiFetch, toQuery } from "@/api/client";
import { ADMIN_KEY } from "../api";

export const AUDIT_PAGE_SIZE = 25;

export interface AuditFilters {
  entity?: AuditEntity;
  actorId?: number;
  page: number;
}

/** GET /audit ?entity &actorId &page &limit: newest first. */
export function useAuditLog(filters: AuditFilters) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "audit", filters],
    queryFn: ({ signal }) =>
      apiFetch<AuditPage>(`/audit${toQuery({ ...filters, limit: AUDIT_PAGE_SIZE })}`, { signal }),
    placeholderData: (previous) => previous,
    staleTime: 0,
  });
}

/** The admins the 'Admin' filter offers (the first hundred: a store has a handful). */
export function useAdmins() {
  return useQuery({
    queryKey: [...ADMIN_KEY, "audit", "admins"],
    queryFn: ({ signal }) =>
      apiFetch<AdminUserPage>(`/user/admin${toQuery({ rol: "admin", limit: PAGE_LIMIT_MAX })}`, { signal }),
    select: (page) => page.users,
    staleTime: 60_000,
  });
}

import { keepPreviousData, useQuery, type QueryClient } from "@tanstack/react-query";
import type { AdminUserPage, Role, UserSummary } from "@voltio/domain/account";
import { apiFetch, toQuery } from "@/api/client";
import { ADMIN_KEY } from "../api";

const USERS_KEY = [...ADMIN_KEY, "users"] as const;

/** GET /user/admin ?search &page: one page of accounts, searched by name or e-mail on the server. */
export function useAdminUsers(query: { search?: string; page: number }) {
  return useQuery({
    queryKey: [...USERS_KEY, query],
    queryFn: ({ signal }) => apiFetch<AdminUserPage>(`/user/admin${toQuery(query)}`, { signal }),
    // The table stays while the next search or page loads, instead of blinking to 'Loading…'.
    placeholderData: keepPreviousData,
  });
}

/** PUT /user/admin {id, rol}: sets the role the admin confirmed (the server refuses to demote user 1). */
export const setRole = (id: number, rol: Role) =>
  apiFetch<UserSummary>("/user/admin", { method: "PUT", body: JSON.stringify({ id, rol }) });

/** DELETE /user/admin {id}. */
export const deleteUser = (id: number) =>
  apiFetch<unknown>("/user/admin", { method: "DELETE", body: JSON.stringify({ id }) });

/** After a change: the list and the dashboard's latest users. */
export const afterUserChange = (client: QueryClient) =>
  Promise.all([USERS_KEY, [...ADMIN_KEY, "stats"]].map((queryKey) => client.invalidateQueries({ queryKey })));

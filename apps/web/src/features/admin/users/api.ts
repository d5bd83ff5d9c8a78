import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import type { AdminUserPage, Role, UserSummary } from "@voltio/domain/account";
import { apiFetch, toQuery } from "@/api/client";
import type { ScreenCallbacks } from "@/api/screen-callbacks";
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

/** After a change, made or refused: the list and the dashboard's latest users. */
const afterUserChange = (client: QueryClient) =>
  Promise.all([USERS_KEY, [...ADMIN_KEY, "stats"]].map((queryKey) => client.invalidateQueries({ queryKey })));

/**
 * PUT /user/admin {id, rol}: sets the role the admin confirmed (the server refuses to demote user 1). The
 * screen's onSettled runs once the list has been read again.
 */
export function useSetRole(screen: ScreenCallbacks<UserSummary, { id: number; rol: Role }> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...screen,
    mutationFn: ({ id, rol }: { id: number; rol: Role }) =>
      apiFetch<UserSummary>("/user/admin", { method: "PUT", body: JSON.stringify({ id, rol }) }),
    onSettled: async (...args) => {
      await afterUserChange(client);
      await screen.onSettled?.(...args);
    },
  });
}

/** DELETE /user/admin {id}. The screen's onSettled runs once the list has been read again. */
export function useDeleteUser(screen: ScreenCallbacks<unknown, number> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...screen,
    mutationFn: (id: number) =>
      apiFetch<unknown>("/user/admin", { method: "DELETE", body: JSON.stringify({ id }) }),
    onSettled: async (...args) => {
      await afterUserChange(client);
      await screen.onSettled?.(...args);
    },
  });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { User, UserUpdate } from "@voltio/domain/account";
import { apiFetch } from "./client";
import { logout, storeUser } from "./session";

/*
 * The calls that change the session from a screen, apart from session.ts, which every page loads: only a
 * few screens make them.
 */

/** PUT /user: the reply is the whole user, kept as the session. */
export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserUpdate) => apiFetch<User>("/user", { method: "PUT", body: JSON.stringify(body) }),
    onSuccess: (user) => storeUser(client, user),
  });
}

/** Logout (session.ts: logout): the shopper's queries are reset with it. */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({ mutationFn: () => logout(client) });
}

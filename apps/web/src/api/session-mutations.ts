import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { User, UserUpdate } from "@voltio/domain/account";
import { apiFetch } from "./client";
import { storeUser } from "./session";

/**
 * PUT /user: the reply is the whole user, kept as the session. Apart from session.ts, which every page loads:
 * only a few screens change the user.
 */
export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserUpdate) => apiFetch<User>("/user", { method: "PUT", body: JSON.stringify(body) }),
    onSuccess: (user) => storeUser(client, user),
  });
}

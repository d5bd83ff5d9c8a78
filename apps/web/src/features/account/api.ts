import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AddressValues, UploadReply, User } from "@voltio/domain/account";
import { apiFetch } from "@/api/client";
import { storeUser } from "@/api/session";

/** POST /user/direction: the reply is the whole user, kept as the session. */
export function useAddAddress() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: AddressValues) =>
      apiFetch<User>("/user/direction", { method: "POST", body: JSON.stringify(values) }),
    onSuccess: (user) => storeUser(client, user),
  });
}

/** DELETE /user/direction/:id: the reply is the whole user, kept as the session. */
export function useDeleteAddress() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<User>(`/user/direction/${id}`, { method: "DELETE" }),
    onSuccess: (user) => storeUser(client, user),
  });
}

/** POST /uploads: where the picked picture is served from, saved on the profile only once confirmed. */
export function useUploadPicture() {
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append("file", file);
      return apiFetch<UploadReply>("/uploads", { method: "POST", body });
    },
  });
}

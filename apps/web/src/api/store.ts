import { useQuery } from "@tanstack/react-query";
import type { StoreInfo } from "@voltio/domain/catalog";
import { bootReply } from "./boot-data";
import { apiFetch } from "./client";

/** The store's weekday decides which sales run: the same rule the server prices with. */
export function useStoreInfo() {
  return useQuery({
    queryKey: ["store"],
    queryFn: () => apiFetch<StoreInfo>("/store"),
    ...bootReply<StoreInfo>("/store"),
    staleTime: 10 * 60_000,
  });
}

import { useQuery, type QueryClient } from "@tanstack/react-query";
import type { StatsReply } from "@voltio/domain/admin";
import { apiFetch, toQuery } from "@/api/client";
import { SESSION_KEY } from "@/api/session-key";

/** The back office's reads live under the session: another login never sees them. */
export const ADMIN_KEY = [...SESSION_KEY, "admin"] as const;

/** GET /stats?from&to: the dashboard's figures, aggregated by the server. */
export function useStats(range: { from?: string; to?: string }) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "stats", range],
    queryFn: ({ signal }) => apiFetch<StatsReply>(`/stats${toQuery(range)}`, { signal }),
  });
}

/**
 * After a product or a sale changed: every catalogue reply the page holds (listings, product pages, sales,
 * categories) and the shopper's priced lines are read again, so the new prices show at once.
 */
export const refreshCatalogue = (client: QueryClient) =>
  Promise.all(
    [["products"], ["product"], ["sales"], ["categories"], [...SESSION_KEY, "orders"]].map((queryKey) =>
      client.invalidateQueries({ queryKey }),
    ),
  );

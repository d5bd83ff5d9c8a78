import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Networks } from "@voltio/domain/catalog";
import type {
  NetworksInput,
  NewsletterInput,
  NewsletterPage,
  NewsletterSendReply,
} from "@voltio/domain/newsletter";
import { apiFetch, toQuery } from "@/api/client";
import { ADMIN_KEY } from "../api";

export const SENT_PAGE_SIZE = 10;
/** How often the sent list is read again while the mail worker still has messages of it to deliver. */
const PROGRESS_POLL_MS = 3_000;

const NEWSLETTERS_KEY = [...ADMIN_KEY, "newsletters"] as const;

/** GET /emails?page&limit: the newsletters sent, newest first, and how many users 'All' reaches. */
export function useNewsletters(page: number) {
  return useQuery({
    queryKey: [...NEWSLETTERS_KEY, page],
    queryFn: ({ signal }) =>
      apiFetch<NewsletterPage>(`/emails${toQuery({ page, limit: SENT_PAGE_SIZE })}`, { signal }),
    // Delivery is the worker's: the progress bars follow it until nothing is left in the queue.
    refetchInterval: (query) =>
      query.state.data?.newsletters.some((newsletter) => newsletter.delivery.queued > 0)
        ? PROGRESS_POLL_MS
        : false,
    placeholderData: (previous) => previous,
  });
}

/** POST /emails: one message per receiver goes to the outbox; the reply says how many. */
export function useSendNewsletter() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewsletterInput) =>
      apiFetch<NewsletterSendReply>("/emails", { method: "POST", body: JSON.stringify(body) }),
    // The sent list follows; the form answers without waiting for it.
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: NEWSLETTERS_KEY });
    },
  });
}

/** GET /networks: the storefront footer's own entry, read fresh when the form opens. */
export function useNetworkLinks() {
  return useQuery({
    queryKey: ["networks"],
    queryFn: ({ signal }) => apiFetch<Networks[]>("/networks", { signal }),
    staleTime: 0,
  });
}

/** POST /networks, then the footer's query holds the new links at once. */
export function useSaveNetworks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Required<NetworksInput>) =>
      apiFetch<Networks>("/networks", { method: "POST", body: JSON.stringify(body) }),
    onSuccess: (saved) => {
      client.setQueryData<Networks[]>(["networks"], [saved]);
      void client.invalidateQueries({ queryKey: ["networks"] });
    },
  });
}

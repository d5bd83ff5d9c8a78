/**
 * API replies embedded in the page's HTML by the server (apps/server/src/modules/web/boot-data.ts), keyed by
 * the path apiFetch() uses. Queries take them as initial data, so the first render already has the
 * banner's sales or the product instead of skeletons, without a request after the script has loaded.
 */
let replies: Record<string, unknown> | null = null;
/** Replies the server embedded in part (a listing without its descriptions): fetched again once drawn. */
let brief = new Set<string>();

function read(): Record<string, unknown> {
  if (replies) return replies;
  replies = {};
  const element = typeof document === "undefined" ? null : document.getElementById("boot-data");
  if (element?.textContent) {
    try {
      const data = JSON.parse(element.textContent) as { replies?: Record<string, unknown>; brief?: string[] };
      replies = data.replies ?? {};
      brief = new Set(data.brief ?? []);
    } catch {
      // A damaged block only costs the requests it would have saved.
    }
  }
  return replies;
}

/**
 * The server's render (entry-server.tsx) hands the same replies over directly. renderToString is
 * synchronous, so no other request's render can see them in between.
 */
export function renderWithBootReplies<T>(serverReplies: Record<string, unknown>, render: () => T): T {
  replies = serverReplies;
  try {
    return render();
  } finally {
    replies = null;
  }
}

/** Initial-data options for the query of `path`: empty when the HTML did not carry that reply. */
export function bootReply<T>(path: string) {
  return {
    initialData: () => read()[path] as T | undefined,
    // The replies are as old as the page: fresh from the navigation on, measured on the browser's clock. A
    // brief one is stale from the start, so the query fetches the whole reply once the page is drawn.
    initialDataUpdatedAt: () => (path in read() ? (brief.has(path) ? 0 : performance.timeOrigin) : undefined),
  };
}

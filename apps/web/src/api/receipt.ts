import { useMutation } from "@tanstack/react-query";
import { ApiError, refreshAccessToken } from "./client";
import { tokens } from "./tokens";

/**
 * A purchase's PDF receipt, from the order page and the back office. The call needs the
 * bearer token, so a plain link can't download it: the file is fetched (refreshing an expired token once, as
 * every API call does) and saved from a Blob.
 */
async function downloadReceipt(number: string): Promise<void> {
  const path = `/api/order/purchases/${encodeURIComponent(number)}/receipt`;
  const get = (access: string | null) =>
    fetch(path, { headers: access ? { authorization: `Bearer ${access}` } : {} });
  let access = tokens.access();
  let response = await get(access);
  if (response.status === 403) {
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { error?: { name?: string } } | null;
    if (body?.error?.name === "TokenExpiredError" && (await refreshAccessToken(access))) {
      access = tokens.access();
      response = await get(access);
    }
  }
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => undefined));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `receipt-${number}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: the download has started by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The receipt's download, by the purchase's number: nothing in the cache changes. */
export const useDownloadReceipt = () => useMutation({ mutationFn: downloadReceipt });

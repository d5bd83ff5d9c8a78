import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { ListMergeReply } from "@voltio/domain/orders";
import { ORDER_AMOUNT_MAX } from "@voltio/domain/order-status";
import { ApiError, apiFetch } from "./client";
import { readGuestList, removeFromGuestList, useGuestList, type GuestLine } from "./guest-lists";
import { refreshOrders } from "./orders";

/**
 * docs/product-rules.md §8 Login: after a login the guest's cart (with its amounts) and wishlist join the
 * shopper's lists in one call, POST /order/merge, which the server applies in one transaction. The lists leave
 * the browser storage only once the server answered; a merge cut short is sent again later with the same key,
 * so the server applies it once even when its first reply was lost on the way.
 */
export interface MergeInput {
  inCart: { productId: number; variantId?: number; amount: number }[];
  inWishList: { productId: number; variantId?: number }[];
}

const clampAmount = (amount: number) =>
  Math.min(ORDER_AMOUNT_MAX, Math.max(1, Math.round(Number.isFinite(amount) ? amount : 1)));

/** Product and variant (when one was chosen), as the merge names a line. */
const lineKey = ({ productId, variantId }: GuestLine) =>
  variantId === undefined ? { productId } : { productId, variantId };

/**
 * What to send: a product (or variant) listed twice in the cart sends its amounts together; the wishlist is
 * a set.
 */
export function mergePlan(cart: readonly GuestLine[], wishlist: readonly GuestLine[]): MergeInput {
  const cartAmounts = new Map<string, { productId: number; variantId?: number; amount: number }>();
  for (const line of cart) {
    const key = `${line.productId}:${line.variantId ?? ""}`;
    cartAmounts.set(key, { ...lineKey(line), amount: (cartAmounts.get(key)?.amount ?? 0) + line.amount });
  }
  const wished = new Map(
    wishlist.map((line) => [`${line.productId}:${line.variantId ?? ""}`, lineKey(line)]),
  );
  return {
    inCart: [...cartAmounts.values()].map((line) => ({ ...line, amount: clampAmount(line.amount) })),
    inWishList: [...wished.values()],
  };
}

/**
 * What to do with the guest lists after the call: `clear` when the server answered for good (merged, or
 * refused the input as invalid), `keep` when the answer says nothing about them (offline, the login ended,
 * a server fault, throttling), so the next merge sends them again.
 */
export function mergeOutcome(error: unknown): "clear" | "keep" {
  if (error === undefined) return "clear";
  if (error instanceof ApiError && [400, 404, 409, 422].includes(error.status)) return "clear";
  return "keep";
}

/** The key of the merge waiting to be sent, stored with what it sends. */
const PENDING_MERGE = "listMerge";

function randomUuid() {
  // crypto.randomUUID needs a secure context; a store served over plain http on a LAN still merges.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The same lists sent again keep their key; lists that changed since are a new merge. */
function mergeKeyFor(plan: MergeInput): string {
  const sends = JSON.stringify(plan);
  try {
    const stored = JSON.parse(localStorage.getItem(PENDING_MERGE) ?? "null") as {
      key?: unknown;
      sends?: unknown;
    } | null;
    if (stored && typeof stored.key === "string" && stored.sends === sends) return stored.key;
  } catch {
    // A damaged value: start a new merge.
  }
  const key = randomUuid();
  localStorage.setItem(PENDING_MERGE, JSON.stringify({ key, sends }));
  return key;
}

let running: Promise<void> | null = null;

/** Sends the guest lines still in storage; never throws (a refusal is no error screen). */
export function mergeGuestLists(): Promise<void> {
  running ??= mergeOnce().finally(() => {
    running = null;
  });
  return running;
}

async function mergeOnce() {
  const cart = readGuestList("inCart");
  const wishlist = readGuestList("inWishList");
  if (cart.length === 0 && wishlist.length === 0) return;
  const plan = mergePlan(cart, wishlist);
  let failure: unknown;
  try {
    await apiFetch<ListMergeReply>("/order/merge", {
      method: "POST",
      body: JSON.stringify({ key: mergeKeyFor(plan), ...plan }),
    });
  } catch (error) {
    failure = error ?? new Error("failed");
  }
  if (mergeOutcome(failure) === "keep") return;
  for (const line of cart) removeFromGuestList("inCart", line.productId, line.variantId);
  for (const line of wishlist) removeFromGuestList("inWishList", line.productId, line.variantId);
  localStorage.removeItem(PENDING_MERGE);
}

/**
 * A signed-in shopper's page with guest lines still in storage (a merge cut short, or a login from another
 * tab): merge them now, then read the orders again.
 */
export function useLeftoverGuestMerge(signedInShopper: boolean) {
  const client = useQueryClient();
  const waiting = useGuestList("inCart").length + useGuestList("inWishList").length > 0;
  useEffect(() => {
    if (signedInShopper && waiting) void mergeGuestLists().then(() => refreshOrders(client));
  }, [signedInShopper, waiting, client]);
}

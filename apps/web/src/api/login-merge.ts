import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ORDER_AMOUNT_MAX, type ListStatus } from "@voltio/domain/orders";
import { ApiError } from "./client";
import { readGuestList, removeFromGuestList, useGuestList, type GuestLine } from "./guest-lists";
import { addOrder, refreshOrders } from "./orders";

/**
 * SPEC.md §4 Login, issue 9 point 3: after a login the guest's cart lines are re-submitted as cart orders
 * with their amounts and the wishlist lines as wishlist adds. A line leaves the browser storage only once the
 * server took it or refused it for good (stock, product gone), so a merge cut short is retried later.
 */
export interface MergeLine {
  status: ListStatus;
  productId: number;
  amount: number;
}

const clampAmount = (amount: number) =>
  Math.min(ORDER_AMOUNT_MAX, Math.max(1, Math.round(Number.isFinite(amount) ? amount : 1)));

/** What to send: one add per product and list; a product listed twice sends its amounts together. */
export function mergePlan(cart: readonly GuestLine[], wishlist: readonly GuestLine[]): MergeLine[] {
  const plan: MergeLine[] = [];
  const cartAmounts = new Map<number, number>();
  for (const line of cart)
    cartAmounts.set(line.productId, (cartAmounts.get(line.productId) ?? 0) + line.amount);
  for (const [productId, amount] of cartAmounts)
    plan.push({ status: "inCart", productId, amount: clampAmount(amount) });
  const wished = new Set(wishlist.map((line) => line.productId));
  for (const productId of wished) plan.push({ status: "inWishList", productId, amount: 1 });
  return plan;
}

/**
 * What to do with a line after its add: `clear` when it was sent or refused for good (the server answered
 * 400, 404 or 409), `keep` when the answer says nothing about the line (offline, the login ended, a server
 * fault, throttling), so the next merge tries it again.
 */
export function mergeOutcome(error: unknown): "clear" | "keep" {
  if (error === undefined) return "clear";
  if (error instanceof ApiError && [400, 404, 409, 422].includes(error.status)) return "clear";
  return "keep";
}

let running: Promise<void> | null = null;

/** Sends the guest lines still in storage, one at a time; never throws (a refusal is no error screen). */
export function mergeGuestLists(): Promise<void> {
  running ??= mergeOnce().finally(() => {
    running = null;
  });
  return running;
}

async function mergeOnce() {
  const plan = mergePlan(readGuestList("inCart"), readGuestList("inWishList"));
  for (const line of plan) {
    let failure: unknown;
    try {
      await addOrder(line);
    } catch (error) {
      failure = error ?? new Error("failed");
    }
    if (mergeOutcome(failure) === "clear") removeFromGuestList(line.status, line.productId);
  }
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

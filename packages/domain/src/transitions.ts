import type { AdminOrderStatus, OrderFlag } from "./admin-orders";
import { PAID_STATUSES, type PurchaseStatus } from "./order-status";

/**
 * Every status move the store makes, as data: a purchase (a single order or a bulk order), a checkout and a
 * payment each have a list of the moves they may make, who makes each, and what it does to stock and money.
 * A move not listed is refused: the server checks here before writing, the back office greys out what isn't
 * listed, so the two can't disagree. Zod-free, so the back office's table loads it cheaply.
 */

/** The statuses of a checkout (the server's `checkouts.status`). */
export const CHECKOUT_STATUSES = [
  "open",
  "paid",
  "replaced",
  "refund_needed",
  "amount_mismatch",
  "expired",
] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** A payment's status as its provider reports it (the server's `payments.status`). */
export const PAYMENT_STATUSES = ["pending", "approved", "rejected"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * Who makes a move: the shopper (Pay), an admin (the back office), the provider (what it reports of a payment:
 * return page, webhook, re-check) or the store's own workers (system).
 */
export type Mover = "shopper" | "admin" | "provider" | "system";

/** What a move does to the units on the shelf. */
export type StockEffect = "none" | "holds stock" | "releases holds" | "takes stock" | "gives stock back";

/** What a move does to the buyer's money. */
export type MoneyEffect = "none" | "takes the payment" | "refunds the payment";

/** What must hold of a purchase for an admin's move: a checkout paid it, its money wasn't given back. */
export type PurchaseCondition = "paid" | "not refunded";

export interface Transition<S extends string> {
  /** Null: the row is created in this status. */
  from: S | null;
  to: S;
  by: Mover;
  stock: StockEffect;
  money: MoneyEffect;
  needs?: readonly PurchaseCondition[];
}

const PAID: readonly PurchaseStatus[] = PAID_STATUSES;

/**
 * A purchase's moves. Between paid statuses no order is enforced; a repeat of the status a purchase has is no
 * move at all, except shipping again with new tracking. A pending purchase was never paid: an admin can only
 * cancel it, which ends its shopper's holds.
 */
export const PURCHASE_TRANSITIONS: readonly Transition<PurchaseStatus>[] = [
  { from: "pending", to: "finished", by: "provider", stock: "takes stock", money: "takes the payment" },
  // Paid, but the units were gone or the product retired.
  { from: "pending", to: "cancelled", by: "provider", stock: "releases holds", money: "refunds the payment" },
  { from: "pending", to: "cancelled", by: "admin", stock: "releases holds", money: "none" },
  ...PAID.flatMap((from) =>
    PAID.filter((to) => to !== from || to === "onDelivery").map((to): Transition<PurchaseStatus> => ({
      from,
      to,
      by: "admin",
      stock: "none",
      money: "none",
      needs: ["paid"],
    })),
  ),
  // Also a full refund of the payment (the units not shipped yet go back).
  ...PAID.map((from): Transition<PurchaseStatus> => ({
    from,
    to: "cancelled",
    by: "admin",
    stock: "gives stock back",
    money: "refunds the payment",
  })),
  // Reopening: sending goods whose money went back would give them away.
  ...PAID.map((to): Transition<PurchaseStatus> => ({
    from: "cancelled",
    to,
    by: "admin",
    stock: "takes stock",
    money: "none",
    needs: ["paid", "not refunded"],
  })),
];

/**
 * A checkout's moves. Only an open one, or one whose hold ran out, is settled; a paid, replaced or refunded
 * checkout keeps its status whatever else is paid on it (that money is refunded).
 */
export const CHECKOUT_TRANSITIONS: readonly Transition<CheckoutStatus>[] = [
  { from: null, to: "open", by: "shopper", stock: "holds stock", money: "none" },
  // Pay again with something else pending, or after the hold ended.
  { from: "open", to: "replaced", by: "shopper", stock: "releases holds", money: "none" },
  // The provider refused to start it, its start died, or its hold ran out unpaid.
  { from: "open", to: "expired", by: "system", stock: "releases holds", money: "none" },
  { from: "open", to: "paid", by: "provider", stock: "takes stock", money: "takes the payment" },
  { from: "expired", to: "paid", by: "provider", stock: "takes stock", money: "takes the payment" },
  {
    from: "open",
    to: "refund_needed",
    by: "provider",
    stock: "releases holds",
    money: "refunds the payment",
  },
  {
    from: "expired",
    to: "refund_needed",
    by: "provider",
    stock: "releases holds",
    money: "refunds the payment",
  },
  {
    from: "open",
    to: "amount_mismatch",
    by: "provider",
    stock: "releases holds",
    money: "refunds the payment",
  },
  {
    from: "expired",
    to: "amount_mismatch",
    by: "provider",
    stock: "releases holds",
    money: "refunds the payment",
  },
];

/**
 * A payment's moves. An approved payment stays approved: what comes back (a refund, a chargeback) is counted
 * beside its status. A declined card may be tried again on the same payment.
 */
export const PAYMENT_TRANSITIONS: readonly Transition<PaymentStatus>[] = [
  { from: null, to: "pending", by: "provider", stock: "none", money: "none" },
  { from: null, to: "approved", by: "provider", stock: "none", money: "takes the payment" },
  // Its checkout, if still open, stops holding: the next Pay holds again.
  { from: null, to: "rejected", by: "provider", stock: "releases holds", money: "none" },
  { from: "pending", to: "pending", by: "provider", stock: "none", money: "none" },
  { from: "pending", to: "approved", by: "provider", stock: "none", money: "takes the payment" },
  { from: "pending", to: "rejected", by: "provider", stock: "releases holds", money: "none" },
  { from: "rejected", to: "rejected", by: "provider", stock: "none", money: "none" },
  { from: "rejected", to: "pending", by: "provider", stock: "none", money: "none" },
  { from: "rejected", to: "approved", by: "provider", stock: "none", money: "takes the payment" },
  // Reported again, maybe with refunds or a dispute.
  { from: "approved", to: "approved", by: "provider", stock: "none", money: "none" },
  // The owner's refund: only of an approved payment.
  { from: "approved", to: "approved", by: "admin", stock: "none", money: "refunds the payment" },
];

export const TRANSITIONS = {
  purchase: PURCHASE_TRANSITIONS,
  checkout: CHECKOUT_TRANSITIONS,
  payment: PAYMENT_TRANSITIONS,
} as const;
export type Entity = keyof typeof TRANSITIONS;
export type StatusOf<E extends Entity> = {
  purchase: PurchaseStatus;
  checkout: CheckoutStatus;
  payment: PaymentStatus;
}[E];

/** The listed moves from `from` to `to` (by `by`, when given); empty when there are none. */
export function movesBetween<E extends Entity>(
  entity: E,
  from: string | null,
  to: string,
  by?: Mover,
): readonly Transition<StatusOf<E>>[] {
  const moves = TRANSITIONS[entity] as readonly Transition<StatusOf<E>>[];
  return moves.filter((move) => move.from === from && move.to === to && (by === undefined || move.by === by));
}

/** An entity's moves as a map, from each status to the statuses it may go to (by `by`, when given). */
export function transitionsOf<E extends Entity>(
  entity: E,
  by?: Mover,
): Map<StatusOf<E> | null, StatusOf<E>[]> {
  const map = new Map<StatusOf<E> | null, StatusOf<E>[]>();
  for (const move of TRANSITIONS[entity] as readonly Transition<StatusOf<E>>[]) {
    if (by !== undefined && move.by !== by) continue;
    const tos = map.get(move.from) ?? [];
    if (!tos.includes(move.to)) tos.push(move.to);
    map.set(move.from, tos);
  }
  return map;
}

/** What the admin's purchase needs to know of itself: whether a checkout paid it, and its money's flag. */
export interface PurchaseFacts {
  paid: boolean;
  flag: OrderFlag | null;
}

/** Why an admin's move was refused: the purchase wasn't paid, its money went back, or no such move exists. */
export type PurchaseRefusal = "unpaid" | "refunded" | "not allowed";

/**
 * An admin moving a purchase from `from` to `to`: the move, or why not. Call it only for a real move (a repeat
 * of the purchase's status changes nothing, and isn't asked).
 */
export function adminPurchaseMove(
  from: string,
  to: AdminOrderStatus,
  facts: PurchaseFacts,
): { move: Transition<PurchaseStatus> } | { refused: PurchaseRefusal } {
  const [move] = movesBetween("purchase", from, to, "admin");
  if (!move) return { refused: from === "pending" ? "unpaid" : "not allowed" };
  const needs = move.needs ?? [];
  if (needs.includes("paid") && !facts.paid) return { refused: "unpaid" };
  if (needs.includes("not refunded") && (facts.flag === "refund_needed" || facts.flag === "refunded"))
    return { refused: "refunded" };
  return { move };
}

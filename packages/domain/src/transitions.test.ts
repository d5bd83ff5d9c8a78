import { describe, expect, it } from "vitest";
import { ADMIN_ORDER_STATUSES, type AdminOrderStatus } from "./admin-orders";
import { PURCHASE_STATUSES } from "./order-status";
import {
  CHECKOUT_TRANSITIONS,
  PAYMENT_TRANSITIONS,
  PURCHASE_TRANSITIONS,
  TRANSITIONS,
  adminPurchaseMove,
  movesBetween,
  transitionsOf,
  type Entity,
} from "./transitions";

const paid = { paid: true, flag: null } as const;

describe("an admin's purchase moves", () => {
  it.each<[string, AdminOrderStatus, Parameters<typeof adminPurchaseMove>[2], string]>([
    // from, to, facts, what happens (stock / money) or why it's refused
    ["pending", "cancelled", { paid: false, flag: null }, "releases holds / none"],
    ["pending", "finished", paid, "unpaid"],
    ["pending", "delivered", paid, "unpaid"],
    ["finished", "preparing", paid, "none / none"],
    ["delivered", "finished", paid, "none / none"],
    ["onDelivery", "onDelivery", paid, "none / none"],
    ["preparing", "onDelivery", { paid: false, flag: null }, "unpaid"],
    ["finished", "cancelled", paid, "gives stock back / refunds the payment"],
    ["delivered", "cancelled", { paid: false, flag: null }, "gives stock back / refunds the payment"],
    ["cancelled", "finished", paid, "takes stock / none"],
    ["cancelled", "delivered", { paid: true, flag: "amount_mismatch" }, "takes stock / none"],
    ["cancelled", "preparing", { paid: true, flag: "refund_needed" }, "refunded"],
    ["cancelled", "onDelivery", { paid: true, flag: "refunded" }, "refunded"],
    ["cancelled", "finished", { paid: false, flag: "refunded" }, "unpaid"],
    ["cancelled", "cancelled", paid, "not allowed"],
    ["finished", "finished", paid, "not allowed"],
    ["inCart", "cancelled", paid, "not allowed"],
  ])("%s → %s (%o): %s", (from, to, facts, expected) => {
    const outcome = adminPurchaseMove(from, to, facts);
    expect("move" in outcome ? `${outcome.move.stock} / ${outcome.move.money}` : outcome.refused).toBe(
      expected,
    );
  });

  it("lets a paid purchase go to any status the back office offers, and a pending one only to cancelled", () => {
    const admin = transitionsOf("purchase", "admin");
    for (const from of ["finished", "preparing", "delivered"] as const)
      expect(new Set([from, ...admin.get(from)!])).toEqual(new Set(ADMIN_ORDER_STATUSES));
    expect(admin.get("pending")).toEqual(["cancelled"]);
    expect(admin.get("cancelled")).toEqual(["finished", "preparing", "onDelivery", "delivered"]);
  });
});

describe("checkout moves", () => {
  it("are these, from each status", () => {
    expect(Object.fromEntries(transitionsOf("checkout"))).toEqual({
      null: ["open"],
      open: ["replaced", "expired", "paid", "refund_needed", "amount_mismatch"],
      expired: ["paid", "refund_needed", "amount_mismatch"],
    });
  });

  it.each([
    ["open", "paid", "provider", "takes stock", "takes the payment"],
    ["open", "replaced", "shopper", "releases holds", "none"],
    ["open", "expired", "system", "releases holds", "none"],
    ["expired", "amount_mismatch", "provider", "releases holds", "refunds the payment"],
  ])("%s → %s: by %s, %s, %s", (from, to, by, stock, money) => {
    expect(movesBetween("checkout", from, to)).toEqual([{ from, to, by, stock, money }]);
  });

  it("never leave paid, replaced or refunded", () => {
    for (const from of ["paid", "replaced", "refund_needed", "amount_mismatch"])
      expect(CHECKOUT_TRANSITIONS.some((move) => move.from === from)).toBe(false);
  });
});

describe("payment moves", () => {
  it("never take an approved payment back to pending or rejected", () => {
    expect(transitionsOf("payment").get("approved")).toEqual(["approved"]);
    expect(movesBetween("payment", "approved", "rejected")).toEqual([]);
  });

  it("let only an admin refund, and only an approved payment", () => {
    const refunds = PAYMENT_TRANSITIONS.filter((move) => move.money === "refunds the payment");
    expect(refunds).toEqual([
      { from: "approved", to: "approved", by: "admin", stock: "none", money: "refunds the payment" },
    ]);
  });
});

describe("the table", () => {
  it("lists each move once per mover, between known statuses", () => {
    const known: Record<Entity, readonly string[]> = {
      purchase: PURCHASE_STATUSES,
      checkout: ["open", "paid", "replaced", "refund_needed", "amount_mismatch", "expired"],
      payment: ["pending", "approved", "rejected"],
    };
    for (const entity of Object.keys(TRANSITIONS) as Entity[]) {
      const keys = TRANSITIONS[entity].map((move) => `${move.from}>${move.to}>${move.by}`);
      expect(new Set(keys).size, entity).toBe(keys.length);
      for (const move of TRANSITIONS[entity]) {
        if (move.from !== null) expect(known[entity]).toContain(move.from);
        expect(known[entity]).toContain(move.to);
      }
    }
    expect(PURCHASE_TRANSITIONS.length).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from "vitest";
import { bulkOrderSchema, orderAddSchema, orderListQuerySchema, orderUpdateSchema } from "./orders";

describe("order schemas", () => {
  it("add: defaults the amount, takes canonical strings and drops client prices", () => {
    expect(
      orderAddSchema.parse({ status: "inCart", productId: "7", price: 0.01, title: "x", stock: 99 }),
    ).toEqual({ status: "inCart", productId: 7, amount: 1 });
    // 'Buy now' adds a pending line; the statuses that follow a payment can't be added.
    expect(orderAddSchema.parse({ status: "pending", productId: 1, date: "Mon Nov 23 2026" })).toEqual({
      status: "pending",
      productId: 1,
      amount: 1,
      date: "Mon Nov 23 2026",
    });
    expect(orderAddSchema.safeParse({ status: "finished", productId: 1 }).success).toBe(false);
    expect(orderAddSchema.safeParse({ status: "inCart", productId: 1, amount: 0 }).success).toBe(false);
    expect(orderAddSchema.safeParse({ status: "inCart", productId: 1, amount: 1001 }).success).toBe(false);
  });

  it("status query: one status or a comma list, deduplicated", () => {
    expect(orderListQuerySchema.parse({ status: "inCart,inWishList,inCart" }).status).toEqual([
      "inCart",
      "inWishList",
    ]);
    expect(orderListQuerySchema.safeParse({ status: "inCart,," }).success).toBe(false);
    expect(orderListQuerySchema.safeParse({ status: "bogus" }).success).toBe(false);
  });

  it("update: a delta of one, or a status with a date", () => {
    expect(orderUpdateSchema.parse({ amount: -1 })).toEqual({ amount: -1 });
    expect(orderUpdateSchema.parse({ status: "pending", date: "2026-11-23" })).toEqual({
      status: "pending",
      date: "2026-11-23",
    });
    expect(orderUpdateSchema.safeParse({ amount: 2 }).success).toBe(false);
    expect(orderUpdateSchema.safeParse({}).success).toBe(false);
  });

  it("bulk: 1 to 100 distinct ids", () => {
    expect(bulkOrderSchema.parse({ orderIds: [1, "2"] })).toEqual({ orderIds: [1, 2] });
    expect(bulkOrderSchema.safeParse({ orderIds: [] }).success).toBe(false);
    expect(bulkOrderSchema.safeParse({ orderIds: [1, 1] }).success).toBe(false);
  });
});

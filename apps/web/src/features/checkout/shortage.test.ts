import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/client";
import { shortageFix, shortageOf } from "./shortage";

/** Pay refused because other shoppers' checkouts hold the units — which product, how many left. */
describe("a shortage at Pay", () => {
  it("is read from the server's 409 that names the product and the stock, and from nothing else", () => {
    expect(shortageOf(new ApiError(409, { error: "Only 2 left", productId: 5, stock: 2 }))).toEqual({
      productId: 5,
      stock: 2,
    });
    expect(shortageOf(new ApiError(409, { error: "Out of stock", productId: 5, stock: 0 }))).toEqual({
      productId: 5,
      stock: 0,
    });
    expect(
      shortageOf(new ApiError(409, { error: "A payment is being started for these orders" })),
    ).toBeNull();
    expect(shortageOf(new ApiError(400, { error: "x", productId: 5, stock: 2 }))).toBeNull();
    expect(shortageOf(new Error("offline"))).toBeNull();
  });

  const line = (id: number, productId: number, amount: number, bulk = false) => ({
    product: { id: productId, title: `Product ${productId}` },
    order: { id, amount },
    bulk,
  });

  it("cuts the product's lines bought alone down to what is left beside its bulk-order lines", () => {
    const lines = [line(1, 5, 3), line(2, 6, 1), line(3, 5, 1, true)];
    expect(shortageFix(lines, { productId: 5, stock: 3 })).toMatchObject({
      title: "Product 5",
      action: "cut",
      room: 2,
      single: [lines[0]],
    });
  });

  it("cuts only the short variant's lines, named as the variant", () => {
    const variantLine = (id: number, variantId: number, amount: number) => ({
      product: { id: 5, title: "Mouse" },
      order: { id, amount, variantId },
      pending: { title: variantId === 51 ? "Mouse — Black" : "Mouse — White" },
      bulk: false,
    });
    const lines = [variantLine(1, 51, 3), variantLine(2, 52, 2)];
    expect(
      shortageOf(new ApiError(409, { error: "Only 1 left", productId: 5, variantId: 52, stock: 1 })),
    ).toEqual({
      productId: 5,
      variantId: 52,
      stock: 1,
    });
    expect(shortageFix(lines, { productId: 5, variantId: 52, stock: 1 })).toMatchObject({
      title: "Mouse — White",
      action: "cut",
      room: 1,
      single: [lines[1]],
    });
  });

  it("removes them when nothing is left for them, and offers nothing for bulk-order lines alone", () => {
    expect(shortageFix([line(1, 5, 2), line(3, 5, 2, true)], { productId: 5, stock: 1 }).action).toBe(
      "remove",
    );
    expect(shortageFix([line(1, 5, 2)], { productId: 5, stock: 0 }).action).toBe("remove");
    expect(shortageFix([line(3, 5, 2, true)], { productId: 5, stock: 1 }).action).toBe("none");
    expect(shortageFix([], { productId: 5, stock: 1 })).toMatchObject({ title: undefined, action: "none" });
  });
});

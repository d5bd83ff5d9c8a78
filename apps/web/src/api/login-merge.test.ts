import { describe, expect, it } from "vitest";
import { ApiError } from "./client";
import type { GuestLine } from "./guest-lists";
import { mergeOutcome, mergePlan } from "./login-merge";
import { productSnapshot } from "@/test/products";

const line = (productId: number, amount = 1): GuestLine => ({
  ...productSnapshot(productId),
  productId,
  status: "inCart",
  amount,
});

describe("which guest lines a login sends (docs/product-rules.md §8 Login)", () => {
  it("sends cart lines with their amounts and wishlist lines by product", () => {
    expect(mergePlan([line(1, 2), line(2)], [line(3, 4)])).toEqual({
      inCart: [
        { productId: 1, amount: 2 },
        { productId: 2, amount: 1 },
      ],
      inWishList: [{ productId: 3 }],
    });
  });

  it("names the variant a guest chose, each variant a line of its own", () => {
    const black = { ...line(1, 2), variantId: 11 };
    const white = { ...line(1, 1), variantId: 12 };
    expect(mergePlan([black, white, { ...black, amount: 1 }, line(1)], [white, white])).toEqual({
      inCart: [
        { productId: 1, variantId: 11, amount: 3 },
        { productId: 1, variantId: 12, amount: 1 },
        { productId: 1, amount: 1 },
      ],
      inWishList: [{ productId: 1, variantId: 12 }],
    });
  });

  it("sends a product listed twice once, with its amounts together, and keeps amounts within 1–1000", () => {
    expect(mergePlan([line(1, 2), line(1, 3), line(2, -4), line(4, 5000)], [line(3), line(3)])).toEqual({
      inCart: [
        { productId: 1, amount: 5 },
        { productId: 2, amount: 1 },
        { productId: 4, amount: 1000 },
      ],
      inWishList: [{ productId: 3 }],
    });
  });

  it("sends nothing when the guest had no lines", () => {
    expect(mergePlan([], [])).toEqual({ inCart: [], inWishList: [] });
  });
});

describe("which lines leave the browser storage", () => {
  it("clears the lists once the server merged them or refused them for good", () => {
    expect(mergeOutcome(undefined)).toBe("clear");
    expect(mergeOutcome(new ApiError(400, { error: "bad" }))).toBe("clear");
  });

  it("keeps the lists for the next try when the answer says nothing about it", () => {
    expect(mergeOutcome(new TypeError("Failed to fetch"))).toBe("keep");
    expect(mergeOutcome(new ApiError(500, { error: "Internal Server Error" }))).toBe("keep");
    expect(mergeOutcome(new ApiError(401, { error: "No token" }))).toBe("keep");
    expect(mergeOutcome(new ApiError(429, { error: "Too many" }))).toBe("keep");
  });
});

import { describe, expect, it } from "vitest";
import { cartSummary, dollarsText } from "./cart-summary";

describe("cart summary (ADR 0015: the one money rule, departing from docs/product-rules.md §1 Cart, §12)", () => {
  it("adds up every line's shipping, as checkout charges it, and totals products and shipping", () => {
    const summary = cartSummary([
      { shippingCents: 1299, totalCents: 5998 },
      { shippingCents: 1589, totalCents: 4974 },
      { shippingCents: 0, totalCents: 1000 },
    ]);
    expect(summary).toEqual({ productsCents: 11972, shippingCents: 2888, totalCents: 14860 });
  });

  it("totals the line totals (each already priced with its 'on Nth unit' sale)", () => {
    expect(cartSummary([{ shippingCents: 0, totalCents: 5998 }]).totalCents).toBe(5998);
  });

  it("an empty cart ships for 0 and costs 0", () => {
    expect(cartSummary([])).toEqual({ productsCents: 0, shippingCents: 0, totalCents: 0 });
  });

  it("has no products or total while a line's price is unknown, and still its shipping", () => {
    expect(
      cartSummary([
        { shippingCents: 500, totalCents: null },
        { shippingCents: 0, totalCents: 100 },
      ]),
    ).toEqual({ productsCents: null, shippingCents: 500, totalCents: null });
  });

  it("writes money with 2 decimals", () => {
    expect(dollarsText(12950)).toBe("129.50");
    expect(dollarsText(0)).toBe("0.00");
  });
});

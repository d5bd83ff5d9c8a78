import { describe, expect, it } from "vitest";
import { cartSummary, dollarsText } from "./cart-summary";

describe("cart summary (SPEC.md §2 Cart, §9)", () => {
  it("charges the highest shipping among the lines, not their sum", () => {
    const summary = cartSummary([
      { shippingCents: 1299, totalCents: 5998 },
      { shippingCents: 1589, totalCents: 4974 },
      { shippingCents: 0, totalCents: 1000 },
    ]);
    expect(summary).toEqual({ shippingCents: 1589, totalCents: 11972 });
  });

  it("totals the line totals (each already priced with its 'on Nth unit' sale)", () => {
    expect(cartSummary([{ shippingCents: 0, totalCents: 5998 }]).totalCents).toBe(5998);
  });

  it("an empty cart ships for 0 and costs 0", () => {
    expect(cartSummary([])).toEqual({ shippingCents: 0, totalCents: 0 });
  });

  it("has no total while a line's price is unknown", () => {
    expect(
      cartSummary([
        { shippingCents: 500, totalCents: null },
        { shippingCents: 0, totalCents: 100 },
      ]),
    ).toEqual({ shippingCents: 500, totalCents: null });
  });

  it("writes money with 2 decimals", () => {
    expect(dollarsText(12950)).toBe("129.50");
    expect(dollarsText(0)).toBe("0.00");
  });
});

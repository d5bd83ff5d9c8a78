import { describe, expect, it } from "vitest";
import { checkoutItems, checkoutTotals, type PendingLine } from "./checkout";
import { lineTotalCents } from "./discount";

const line = (values: Partial<PendingLine>): PendingLine => ({
  title: "Mouse",
  amount: 1,
  unitPriceCents: 2999,
  lineTotalCents: 2999,
  shippingCents: 500,
  salePercentage: null,
  discountedUnits: 0,
  ...values,
});

const charged = (items: ReturnType<typeof checkoutItems>) =>
  items.reduce((sum, item) => sum + item.amount * item.unitPriceCents, 0);

describe("checkoutItems (SPEC.md §7: what the provider charges for a pending line)", () => {
  it("a line without a sale is one item carrying the line's shipping", () => {
    expect(checkoutItems(line({ amount: 3, lineTotalCents: 8997 }))).toEqual([
      { title: "Mouse", amount: 3, unitPriceCents: 2999, shippingCents: 500, discountPercentage: null },
    ]);
  });

  it("an 'on Nth unit' discount becomes its own line with shipping 0", () => {
    // 15% on the 2nd unit, 5 units: 2 of them discounted.
    const total = lineTotalCents(2999, 5, { id: 1, percentage: 15, day: "all", productAmount: 1 });
    const items = checkoutItems(
      line({ amount: 5, lineTotalCents: total, salePercentage: 15, discountedUnits: 2 }),
    );
    expect(items).toEqual([
      { title: "Mouse", amount: 3, unitPriceCents: 2999, shippingCents: 500, discountPercentage: null },
      { title: "Mouse", amount: 2, unitPriceCents: 2549, shippingCents: 0, discountPercentage: 15 },
    ]);
    expect(charged(items)).toBe(total);
  });

  it("a line rounded once at the total still adds up to the cent in whole-cent items", () => {
    // 10% on every unit of 3 × 29.99: the unit shows 26.99, the line is 80.97.
    const total = lineTotalCents(2999, 3, { id: 1, percentage: 10, day: "all", productAmount: 0 });
    const items = checkoutItems(line({ amount: 3, unitPriceCents: 2699, lineTotalCents: total }));
    expect(charged(items)).toBe(total);
    expect(items.reduce((sum, item) => sum + item.shippingCents, 0)).toBe(500);
    expect(items.reduce((sum, item) => sum + item.amount, 0)).toBe(3);
  });

  it("a free unit (100% on the 3rd) is a line at 0", () => {
    const items = checkoutItems(
      line({ amount: 3, lineTotalCents: 5998, salePercentage: 100, discountedUnits: 1 }),
    );
    expect(items[1]).toMatchObject({ amount: 1, unitPriceCents: 0, shippingCents: 0 });
    expect(charged(items)).toBe(5998);
  });
});

describe("checkoutTotals (SPEC.md §2 Checkout)", () => {
  it("sums the products, every line's shipping, and both", () => {
    expect(
      checkoutTotals([
        line({ amount: 2, lineTotalCents: 5998 }),
        line({ lineTotalCents: 1000, shippingCents: 0 }),
      ]),
    ).toEqual({ productsCents: 6998, shippingCents: 500, totalCents: 7498 });
  });
});

import { describe, expect, it } from "vitest";
import {
  checkoutItems,
  checkoutTotals,
  providerItems,
  SHIPPING_ITEM_TITLE,
  type PendingLine,
} from "./checkout";
import { discountedUnitCents, discountedUnits, lineTotalCents } from "./discount";

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

describe("checkoutItems (docs/product-rules.md §10.6: what the provider charges for a pending line)", () => {
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

describe("checkoutTotals: the one money rule of every screen (ADR 0015)", () => {
  it("sums the products, every line's shipping, and both", () => {
    expect(
      checkoutTotals([
        line({ amount: 2, lineTotalCents: 5998 }),
        line({ lineTotalCents: 1000, shippingCents: 0 }),
      ]),
    ).toEqual({ productsCents: 6998, shippingCents: 500, totalCents: 7498 });
  });

  it("adds up every line's shipping, not the highest one (each product ships on its own)", () => {
    // The cart: $32 of shipping is the highest line, the sum is $42.
    expect(
      checkoutTotals([
        { lineTotalCents: 7999, shippingCents: 3200 },
        { lineTotalCents: 2999, shippingCents: 1000 },
      ]),
    ).toEqual({ productsCents: 10998, shippingCents: 4200, totalCents: 15198 });
  });

  it("takes any priced line: a cart line has the same two figures as a pending one", () => {
    const pending = line({ amount: 3, lineTotalCents: 8997, shippingCents: 1299 });
    expect(checkoutTotals([{ lineTotalCents: 8997, shippingCents: 1299 }])).toEqual(
      checkoutTotals([pending]),
    );
  });

  it("no lines cost nothing", () => {
    expect(checkoutTotals([])).toEqual({ productsCents: 0, shippingCents: 0, totalCents: 0 });
  });
});

describe("providerItems (docs/product-rules.md §10.6: what POST /{provider}/pay sends)", () => {
  it("ends with the shippingCost item carrying the summed shipping", () => {
    const items = providerItems([line({}), line({ title: "Keyboard", shippingCents: 1200 })]);
    expect(items.at(-1)).toEqual({ title: SHIPPING_ITEM_TITLE, amount: 1, unitPriceCents: 1700 });
  });

  it("adds up to the total of checkoutTotals for any lines (property over generated carts)", () => {
    // A small deterministic generator: prices, amounts, sales and shipping of every kind, no randomness in CI.
    let seed = 23;
    const next = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    for (let cart = 0; cart < 300; cart++) {
      const lines = Array.from({ length: 1 + next(5) }, () => {
        const amount = 1 + next(9);
        const unitPriceCents = next(200_000);
        const percentage = [0, 5, 15, 33, 50, 100][next(6)]!;
        const nth = next(4);
        const sale = percentage === 0 ? null : { id: 1, percentage, day: "all" as const, productAmount: nth };
        return line({
          amount,
          // A sale on every unit keeps the discounted unit price; an 'on Nth unit' one keeps the full price.
          unitPriceCents: sale && nth === 0 ? discountedUnitCents(unitPriceCents, sale) : unitPriceCents,
          lineTotalCents: lineTotalCents(unitPriceCents, amount, sale),
          shippingCents: [0, 500, 1299, 3200][next(4)]!,
          salePercentage: sale ? percentage : null,
          discountedUnits: sale && nth > 0 ? discountedUnits(amount, sale) : 0,
        });
      });
      const items = providerItems(lines);
      expect(items.reduce((sum, item) => sum + item.amount * item.unitPriceCents, 0)).toBe(
        checkoutTotals(lines).totalCents,
      );
      expect(items.every((item) => Number.isInteger(item.unitPriceCents) && item.unitPriceCents >= 0)).toBe(
        true,
      );
    }
  });
});

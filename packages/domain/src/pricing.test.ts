import { describe, expect, it } from "vitest";
import type { SaleTerms } from "./discount";
import { linePriceCents, priceToday } from "./pricing";

const sale = (percentage: number, day: SaleTerms["day"], productAmount = 0, id = 1): SaleTerms => ({
  id,
  percentage,
  day,
  productAmount,
});

const mouse = (sales: Partial<{ productSales: SaleTerms[]; categorySales: SaleTerms[] }> = {}) => ({
  price: 29.99,
  sales: { productSales: [], categorySales: [], ...sales },
});

describe("priceToday", () => {
  it("without a sale: the price alone", () => {
    expect(priceToday(mouse(), [], "mon")).toEqual({ sale: null, originalCents: 2999, unitCents: 2999 });
  });

  it("a sale on every unit lowers the unit price, rounded half-up", () => {
    const price = priceToday(mouse({ categorySales: [sale(10, "all")] }), [], "mon");
    expect(price).toEqual({ sale: sale(10, "all"), originalCents: 2999, unitCents: 2699 });
  });

  it("only sales running on the store's weekday count, and the highest percentage wins", () => {
    const product = mouse({ productSales: [sale(35, "fri", 0, 4)], categorySales: [sale(20, "all", 0, 2)] });
    const global = [sale(10, "sun", 0, 1)];
    expect(priceToday(product, global, "fri").unitCents).toBe(1949);
    expect(priceToday(product, global, "mon").unitCents).toBe(2399);
    expect(priceToday(product, [sale(50, "all", 0, 9)], "mon").unitCents).toBe(1500);
  });

  it("before the weekday is known, no sale applies", () => {
    expect(priceToday(mouse({ categorySales: [sale(10, "all")] }), [], undefined)).toEqual({
      sale: null,
      originalCents: 2999,
      unitCents: 2999,
    });
  });

  it("a sale on the n-th unit leaves the unit price whole but is the sale that applies", () => {
    const thirdFree = sale(100, "all", 2);
    const price = priceToday(mouse({ categorySales: [thirdFree] }), [], "mon");
    expect(price).toEqual({ sale: thirdFree, originalCents: 2999, unitCents: 2999 });
  });

  it("prices in dollars with binary noise still land on whole cents", () => {
    expect(priceToday({ ...mouse(), price: 1.005 }, [], "mon").originalCents).toBe(101);
  });
});

describe("linePriceCents (docs/product-rules.md §1 Cart: unit price × amount)", () => {
  it("without a sale: unit price times amount", () => {
    expect(linePriceCents(priceToday(mouse(), [], "mon"), 3)).toBe(8997);
  });

  it("a sale on every unit discounts each unit, rounded once at the line", () => {
    const price = priceToday(mouse({ categorySales: [sale(10, "all")] }), [], "mon");
    expect(linePriceCents(price, 3)).toBe(8097);
    // 5 × 29.99 × 0.9 = 134.955 → 134.96, where 5 × the rounded unit (26.99) would be 134.95.
    expect(linePriceCents(price, 5)).toBe(13496);
  });

  it("'100% OFF on 3º unit': one unit free in every three", () => {
    const price = priceToday(mouse({ categorySales: [sale(100, "all", 2)] }), [], "mon");
    expect(linePriceCents(price, 1)).toBe(2999);
    expect(linePriceCents(price, 2)).toBe(5998);
    expect(linePriceCents(price, 3)).toBe(5998);
    expect(linePriceCents(price, 6)).toBe(11996);
    expect(linePriceCents(price, 7)).toBe(14995);
  });

  it("a sale that does not run today leaves the line whole", () => {
    const price = priceToday(mouse({ categorySales: [sale(40, "sun", 1)] }), [], "mon");
    expect(linePriceCents(price, 2)).toBe(5998);
  });
});

import { describe, expect, it } from "vitest";
import {
  bestSale,
  discountedUnitCents,
  discountedUnits,
  lineTotalCents,
  saleLabel,
  type SaleTerms,
} from "./discount";
import { WEEKDAYS, type Weekday } from "./weekday";

// The 4 demo sales of catalog.json, as the seed stores them.
const fridayGlobal: SaleTerms = { id: 1, percentage: 10, day: "fri", productAmount: 0 };
const mouseThirdFree: SaleTerms = { id: 2, percentage: 100, day: "all", productAmount: 2 };
const sundayKeyboard: SaleTerms = { id: 3, percentage: 40, day: "sun", productAmount: 1 };
const thursdayProduct15: SaleTerms = { id: 4, percentage: 35, day: "thu", productAmount: 0 };
const globalSales = [fridayGlobal];

const demoProducts = {
  mouse: { productSales: [], categorySales: [mouseThirdFree] },
  keyboard: { productSales: [], categorySales: [sundayKeyboard] },
  product15: { productSales: [thursdayProduct15], categorySales: [sundayKeyboard] },
  monitor: { productSales: [], categorySales: [] },
};

// Which demo sale wins for each product on each store weekday.
const expected: Record<keyof typeof demoProducts, Record<Weekday, SaleTerms | null>> = {
  mouse: {
    sun: mouseThirdFree,
    mon: mouseThirdFree,
    tue: mouseThirdFree,
    wed: mouseThirdFree,
    thu: mouseThirdFree,
    fri: mouseThirdFree, // 100% beats the Friday 10%
    sat: mouseThirdFree,
  },
  keyboard: { sun: sundayKeyboard, mon: null, tue: null, wed: null, thu: null, fri: fridayGlobal, sat: null },
  product15: {
    sun: sundayKeyboard,
    mon: null,
    tue: null,
    wed: null,
    thu: thursdayProduct15,
    fri: fridayGlobal,
    sat: null,
  },
  monitor: { sun: null, mon: null, tue: null, wed: null, thu: null, fri: fridayGlobal, sat: null },
};

describe("bestSale with the demo sales", () => {
  for (const [product, byDay] of Object.entries(expected) as [
    keyof typeof demoProducts,
    Record<Weekday, SaleTerms | null>,
  ][]) {
    for (const day of WEEKDAYS) {
      it(`${product} on ${day} → ${byDay[day]?.id ?? "no sale"}`, () => {
        expect(bestSale(demoProducts[product], globalSales, day)).toEqual(byDay[day]);
      });
    }
  }
});

describe("bestSale rules", () => {
  it("the highest percentage wins among product, category and global sales", () => {
    const sales = {
      productSales: [{ id: 7, percentage: 20, day: "all" as const, productAmount: 0 }],
      categorySales: [{ id: 8, percentage: 30, day: "mon" as const, productAmount: 0 }],
    };
    expect(bestSale(sales, [{ id: 9, percentage: 25, day: "all", productAmount: 0 }], "mon")?.id).toBe(8);
    expect(bestSale(sales, [{ id: 9, percentage: 25, day: "all", productAmount: 0 }], "tue")?.id).toBe(9);
  });
  it("on equal percentages the sale that discounts every unit wins, then the oldest", () => {
    const a = { id: 5, percentage: 20, day: "all" as const, productAmount: 1 };
    const b = { id: 6, percentage: 20, day: "all" as const, productAmount: 0 };
    const c = { id: 4, percentage: 20, day: "all" as const, productAmount: 0 };
    expect(bestSale({ productSales: [a, b], categorySales: [c] }, [], "wed")?.id).toBe(4);
  });
  it("no sales → null", () => {
    expect(bestSale({ productSales: [], categorySales: [] }, [], "sat")).toBeNull();
  });
});

describe("'one unit in every n+1' arithmetic", () => {
  it.each([
    // [productAmount, amount, discounted units]
    [0, 1, 1],
    [0, 5, 5],
    [1, 1, 0],
    [1, 2, 1],
    [1, 3, 1],
    [1, 4, 2],
    [2, 2, 0],
    [2, 3, 1],
    [2, 5, 1],
    [2, 6, 2],
    [2, 9, 3],
  ])("productAmount %i, %i units → %i discounted", (productAmount, amount, units) => {
    expect(discountedUnits(amount, { id: 1, percentage: 50, day: "all", productAmount })).toBe(units);
  });

  it.each([
    // Logitech M510 (29.99) with "buy two, the third is free"
    [2999, 1, mouseThirdFree, 2999],
    [2999, 2, mouseThirdFree, 5998],
    [2999, 3, mouseThirdFree, 5998],
    [2999, 5, mouseThirdFree, 11996],
    [2999, 6, mouseThirdFree, 11996],
    // Rii keyboard (10.49), Sunday: 40% off the second one: 10.49 + 6.294 = 16.784 → 16.78
    [1049, 1, sundayKeyboard, 1049],
    [1049, 2, sundayKeyboard, 1678],
    [1049, 3, sundayKeyboard, 2727],
    [1049, 4, sundayKeyboard, 3357], // 41.96 − 2 × 4.196 = 33.568,
    // UBOTIE keyboard (39.99), Thursday 35% on every unit: 3 × 25.9935 = 77.9805 → 77.98 (rounded once)
    [3999, 3, thursdayProduct15, 7798],
    // Friday 10% on a 212.69 desktop: 191.421 → 191.42
    [21269, 1, fridayGlobal, 19142],
    // Half a cent rounds up: 0.05 at 50% = 0.025 → 0.03
    [5, 1, { id: 1, percentage: 50, day: "all", productAmount: 0 }, 3],
    [1999, 4, null, 7996],
  ] as const)("%i cents × %i with %o → %i cents", (unit, amount, sale, total) => {
    expect(lineTotalCents(unit, amount, sale)).toBe(total);
  });
});

describe("unit price and label", () => {
  it("discounted unit price rounds half-up", () => {
    expect(discountedUnitCents(3999, thursdayProduct15)).toBe(2599); // 25.9935
    expect(discountedUnitCents(1049, sundayKeyboard)).toBe(629); // 6.294
    expect(discountedUnitCents(2999, null)).toBe(2999);
    expect(discountedUnitCents(2999, mouseThirdFree)).toBe(0);
  });
  it("labels the unit the sale needs", () => {
    expect(saleLabel(fridayGlobal)).toEqual({ percentage: 10, onUnit: null });
    expect(saleLabel(sundayKeyboard)).toEqual({ percentage: 40, onUnit: 2 });
    expect(saleLabel(mouseThirdFree)).toEqual({ percentage: 100, onUnit: 3 });
  });
});

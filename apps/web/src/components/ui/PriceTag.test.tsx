import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "@testing-library/react";
import { DiscountBadge } from "./DiscountBadge";
import { PriceTag } from "./PriceTag";
import { pricingOf } from "./pricing";

afterEach(cleanup);

const mouse = (sales: { productSales?: object[]; categorySales?: object[] } = {}) => ({
  price: 29.99,
  sales: {
    productSales: [],
    categorySales: [],
    ...sales,
  } as Parameters<typeof pricingOf>[0]["sales"],
});

const sale = (percentage: number, day: "all" | "fri" | "sun", productAmount = 0, id = 1) => ({
  id,
  percentage,
  day,
  productAmount,
});

describe("prices as the server charges them (packages/domain discount engine)", () => {
  it("without a sale: the price alone, nothing struck through", () => {
    const { container } = render(<PriceTag pricing={pricingOf(mouse(), [], "mon")} />);
    expect(container.textContent).toBe("US$ 29.99");
    expect(container.querySelector("s")).toBeNull();
  });

  it("with a sale on every unit: the discounted price, and the original struck through", () => {
    const pricing = pricingOf(mouse({ categorySales: [sale(10, "all")] }), [], "mon");
    const { container } = render(<PriceTag pricing={pricing} />);
    expect(container.textContent).toContain("US$ 26.99");
    expect(container.querySelector("s")?.textContent).toContain("US$ 29.99");
  });

  it("only sales running on the store's weekday count, and the highest percentage wins", () => {
    const product = mouse({ productSales: [sale(35, "fri", 0, 4)], categorySales: [sale(20, "all", 0, 2)] });
    const global = [sale(10, "sun", 0, 1)];
    expect(pricingOf(product, global, "fri").unitCents).toBe(1949);
    expect(pricingOf(product, global, "mon").unitCents).toBe(2399);
    expect(pricingOf(product, [sale(50, "all", 0, 9)], "mon").unitCents).toBe(1500);
  });

  it("before the weekday is known, shows the plain price", () => {
    expect(pricingOf(mouse({ categorySales: [sale(10, "all")] }), [], undefined)).toEqual({
      sale: null,
      originalCents: 2999,
      unitCents: 2999,
    });
  });

  it("a sale on the n-th unit leaves the unit price whole and says which unit in the badge", () => {
    const pricing = pricingOf(mouse({ categorySales: [sale(100, "all", 2)] }), [], "mon");
    expect(pricing.unitCents).toBe(2999);
    const price = render(<PriceTag pricing={pricing} />);
    expect(price.container.textContent).toBe("US$ 29.99");
    const badge = render(<DiscountBadge sale={pricing.sale!} />);
    expect(badge.container.textContent).toBe("100% OFF on 3º unit");
  });

  it("the badge of a sale on every unit is just the percentage", () => {
    const { container } = render(<DiscountBadge sale={sale(35, "all")} />);
    expect(container.textContent).toBe("35% OFF");
  });
});

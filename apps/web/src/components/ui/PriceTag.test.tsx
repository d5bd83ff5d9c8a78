import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "@testing-library/react";
import { priceToday } from "@voltio/domain/pricing";
import { DiscountBadge } from "./DiscountBadge";
import { PriceTag } from "./PriceTag";

afterEach(cleanup);

const mouse = (sales: { productSales?: object[]; categorySales?: object[] } = {}) => ({
  price: 29.99,
  sales: {
    productSales: [],
    categorySales: [],
    ...sales,
  } as Parameters<typeof priceToday>[0]["sales"],
});

const sale = (percentage: number, day: "all" | "fri" | "sun", productAmount = 0, id = 1) => ({
  id,
  percentage,
  day,
  productAmount,
});

// The rules themselves are tested in packages/domain/src/pricing.test.ts; these check what the shopper sees.
describe("the price a shopper pays today, as shown", () => {
  it("without a sale: the price alone, nothing struck through", () => {
    const { container } = render(<PriceTag price={priceToday(mouse(), [], "mon")} />);
    expect(container.textContent).toBe("US$ 29.99");
    expect(container.querySelector("s")).toBeNull();
  });

  it("with a sale on every unit: the discounted price, and the original struck through", () => {
    const price = priceToday(mouse({ categorySales: [sale(10, "all")] }), [], "mon");
    const { container } = render(<PriceTag price={price} />);
    expect(container.textContent).toContain("US$ 26.99");
    expect(container.querySelector("s")?.textContent).toContain("US$ 29.99");
  });

  it("a sale on the n-th unit leaves the unit price whole and says which unit in the badge", () => {
    const price = priceToday(mouse({ categorySales: [sale(100, "all", 2)] }), [], "mon");
    const tag = render(<PriceTag price={price} />);
    expect(tag.container.textContent).toBe("US$ 29.99");
    const badge = render(<DiscountBadge sale={price.sale!} />);
    expect(badge.container.textContent).toBe("100% OFF on 3º unit");
  });

  it("the badge of a sale on every unit is just the percentage", () => {
    const { container } = render(<DiscountBadge sale={sale(35, "all")} />);
    expect(container.textContent).toBe("35% OFF");
  });
});

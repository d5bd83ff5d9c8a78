import { describe, expect, it } from "vitest";
import type { Variant } from "@voltio/domain/catalog";
import { chosenVariant, variantImages, variantParam, variantPriceToday, withVariant } from "./variant-choice";
import { clampQuantity } from "./quantity";

const variant = (id: number, stock: number, price = 10, extra: Partial<Variant> = {}): Variant => ({
  id,
  sku: `S${id}`,
  options: { Colour: `C${id}` },
  price,
  stock,
  images: [],
  saleEligible: true,
  ...extra,
});

const sales = {
  productSales: [{ id: 1, percentage: 50, day: "mon" as const, productAmount: 0 }],
  categorySales: [],
};

describe("the variant a product page shows", () => {
  const product = { variants: [variant(1, 0), variant(2, 5), variant(3, 2)] };

  it("is the URL's when it names one of the product's, else the first with stock", () => {
    expect(chosenVariant(product, new URLSearchParams("variant=3"))?.id).toBe(3);
    expect(chosenVariant(product, new URLSearchParams("variant=1"))?.id).toBe(1);
    expect(chosenVariant(product, new URLSearchParams("variant=99"))?.id).toBe(2);
    expect(chosenVariant(product, new URLSearchParams("variant=abc"))?.id).toBe(2);
    expect(chosenVariant(product, new URLSearchParams(""))?.id).toBe(2);
  });

  it("reads only positive whole ids from ?variant=", () => {
    expect(variantParam(new URLSearchParams("variant=7"))).toBe(7);
    expect(variantParam(new URLSearchParams("variant=-7"))).toBeUndefined();
    expect(variantParam(new URLSearchParams("variant=1.5"))).toBeUndefined();
    expect(variantParam(new URLSearchParams(""))).toBeUndefined();
  });

  it("keeps the query's other parameters when the choice changes", () => {
    expect(withVariant(new URLSearchParams("utm_source=x&variant=1"), 3).toString()).toBe(
      "utm_source=x&variant=3",
    );
  });
});

describe("a variant's price and pictures", () => {
  it("a sale-eligible variant takes the product's sale; another one keeps its price", () => {
    expect(variantPriceToday({ sales }, variant(1, 1, 20), [], "mon").unitCents).toBe(1000);
    expect(
      variantPriceToday({ sales }, variant(1, 1, 20, { saleEligible: false }), [], "mon").unitCents,
    ).toBe(2000);
  });

  it("its own pictures when it has some, else the product's", () => {
    const own = [{ url: "/v.png", altText: "v" }];
    const product = { images: [{ url: "/p.png", altText: "p" }] };
    expect(variantImages(product, variant(1, 1, 1, { images: own }))).toBe(own);
    expect(variantImages(product, variant(1, 1))).toBe(product.images);
  });

  it("a quantity stays between 1 and the stock", () => {
    expect(clampQuantity(5, 3)).toBe(3);
    expect(clampQuantity(0, 3)).toBe(1);
    expect(clampQuantity(Number.NaN, 3)).toBe(1);
    expect(clampQuantity(2, 0)).toBe(1);
  });
});

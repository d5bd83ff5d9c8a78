import { describe, expect, it } from "vitest";
import type { Product } from "@voltio/domain/catalog";
import { colourValues, pricesDiffer } from "./ListingTile";

const variants = (prices: number[]) =>
  prices.map((price, index) => ({
    id: index + 1,
    sku: `S${index}`,
    options: {},
    price,
    stock: 1,
    images: [],
    saleEligible: true,
  })) satisfies Product["variants"];

describe("a listing card's variants", () => {
  it("say 'From' only when the variants' prices differ", () => {
    expect(pricesDiffer({ variants: variants([10, 12]) })).toBe(true);
    expect(pricesDiffer({ variants: variants([10, 10]) })).toBe(false);
    expect(pricesDiffer({ variants: variants([10]) })).toBe(false);
  });

  it("show the Colour option's values, whichever way it is spelled", () => {
    expect(
      colourValues({
        options: [
          { name: "Memory", values: ["16 GB"] },
          { name: "color", values: ["Red"] },
        ],
      }),
    ).toEqual(["Red"]);
    expect(colourValues({ options: [{ name: "Size", values: ["24 in"] }] })).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { relatedPageSize, showsRelated } from "./related-page-size";

describe("related carousel page size by window width (docs/product-rules.md §1)", () => {
  it.each([
    [299, 1],
    [300, 2],
    [767, 2],
    [768, 3],
    [829, 3],
    [830, 4],
    [1449, 4],
    [1450, 5],
    [10000, 5],
  ])("%i px → %i per page", (width, size) => {
    expect(relatedPageSize(width)).toBe(size);
  });

  it("is shown only with more than 3 related products", () => {
    expect(showsRelated(3)).toBe(false);
    expect(showsRelated(4)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { homeCarouselPerView } from "./per-view";

describe("home carousels per view (docs/product-rules.md §1)", () => {
  it.each([
    [360, 1],
    [479, 1],
    [480, 2],
    [599, 2],
    [600, 3],
    [1023, 3],
    [1024, 4],
    [1920, 4],
  ])("%i px → %i cards", (width, perView) => {
    expect(homeCarouselPerView(width)).toBe(perView);
  });
});

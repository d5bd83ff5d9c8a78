import { describe, expect, it } from "vitest";
import { FALLBACK_CATEGORY_COUNT, pickCarouselCategories } from "./carousel-categories";

/** A catalogue: category id → number of products. */
function catalogue(counts: Record<number, number>) {
  const asked: number[] = [];
  return {
    asked,
    load: async (categoryId: number) => {
      asked.push(categoryId);
      const total = counts[categoryId] ?? 0;
      return { total, products: Array.from({ length: Math.min(total, 12) }, (_, index) => index) };
    },
  };
}

/** Draws the lowest untried id first, so the order of draws is predictable. */
const first = () => 0;

describe("home carousel categories (docs/product-rules.md §1, §9)", () => {
  it("draws three distinct categories between 1 and the category count", async () => {
    const counts = Object.fromEntries(Array.from({ length: 16 }, (_, index) => [index + 1, 6]));
    for (let run = 0; run < 50; run++) {
      const { load } = catalogue(counts);
      const picks = await pickCarouselCategories({ categoryCount: 16, load });
      const ids = picks.map((pick) => pick.categoryId);
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(3);
      for (const id of ids) expect(id >= 1 && id <= 16).toBe(true);
    }
  });

  it("draws again for a category with 1 to 4 products, and keeps one with more than 4", async () => {
    const { load, asked } = catalogue({ 1: 5, 2: 4, 3: 1, 4: 9, 5: 7, 6: 30 });
    const picks = await pickCarouselCategories({ categoryCount: 6, load, random: first });
    expect(picks.map((pick) => [pick.categoryId, pick.total])).toEqual([
      [1, 5],
      [4, 9],
      [5, 7],
    ]);
    expect(asked).toEqual([1, 2, 3, 4, 5]);
  });

  it("also draws again for an id without products (a deleted category)", async () => {
    const { load } = catalogue({ 1: 0, 2: 6, 3: 6, 4: 6 });
    const picks = await pickCarouselCategories({ categoryCount: 4, load, random: first });
    expect(picks.map((pick) => pick.categoryId)).toEqual([2, 3, 4]);
  });

  it("shows fewer carousels rather than one with 4 products or less when too few categories qualify", async () => {
    const { load, asked } = catalogue({ 1: 2, 2: 12, 3: 3, 4: 4 });
    const picks = await pickCarouselCategories({ categoryCount: 4, load, random: first });
    expect(picks.map((pick) => pick.categoryId)).toEqual([2]);
    // Every id is tried once at most: the draw ends.
    expect([...asked].sort()).toEqual([1, 2, 3, 4]);
  });

  it("draws from 1 to 16 when the number of categories is unknown", async () => {
    const { load, asked } = catalogue({});
    await pickCarouselCategories({ categoryCount: undefined, load });
    expect([...asked].sort((a, b) => a - b)).toEqual(
      Array.from({ length: FALLBACK_CATEGORY_COUNT }, (_, index) => index + 1),
    );
  });

  it("treats a category that fails to load like an empty one", async () => {
    const picks = await pickCarouselCategories({
      categoryCount: 4,
      random: first,
      load: async (categoryId) => {
        if (categoryId === 1) throw new Error("network down");
        return { total: 5, products: [] };
      },
    });
    expect(picks.map((pick) => pick.categoryId)).toEqual([2, 3, 4]);
  });
});

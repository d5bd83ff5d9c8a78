import { afterEach, describe, expect, it } from "vitest";
import {
  COMPARE_KEY,
  addToCompare,
  compareIdsOf,
  readCompareList,
  removeFromCompare,
  replaceCompareList,
} from "./compare-list";

const laptop = (id: number) => ({ id, title: `Laptop ${id}`, categoryIds: [2, 3], categoryName: "Laptops" });

afterEach(() => localStorage.clear());

describe("the compare list kept in the browser", () => {
  it("keeps up to 4 products of one category under voltio.compare", () => {
    for (const id of [1, 2, 3, 4]) expect(addToCompare(laptop(id))).toBeNull();
    expect(addToCompare(laptop(5))).toEqual({ reason: "full" });
    expect(readCompareList().map((item) => item.id)).toEqual([1, 2, 3, 4]);
    expect(JSON.parse(localStorage.getItem(COMPARE_KEY)!)).toHaveLength(4);
  });

  it("refuses another category's product, naming the list's category, and changes nothing", () => {
    addToCompare(laptop(1));
    // Sharing one category is enough: a desktop is a computer too.
    expect(addToCompare({ id: 8, title: "Desktop", categoryIds: [3], categoryName: "Computers" })).toBeNull();
    expect(addToCompare({ id: 9, title: "Mouse", categoryIds: [5, 2], categoryName: "Mouse" })).toEqual({
      reason: "otherCategory",
      categoryName: "Laptops",
    });
    expect(readCompareList().map((item) => item.id)).toEqual([1, 8]);
  });

  it("adds a product once, removes it, and empties the storage with the last one", () => {
    addToCompare(laptop(1));
    addToCompare(laptop(1));
    expect(readCompareList()).toHaveLength(1);
    removeFromCompare(1);
    expect(localStorage.getItem(COMPARE_KEY)).toBeNull();
  });

  it("survives a damaged value: only well-formed entries, at most 4", () => {
    localStorage.setItem(
      COMPARE_KEY,
      JSON.stringify([{ id: 1 }, "x", { id: -2 }, 3, ...[4, 5, 6, 7, 8].map(laptop)]),
    );
    expect(readCompareList().map((item) => item.id)).toEqual([1, 4, 5, 6]);
    localStorage.setItem(COMPARE_KEY, "{not json");
    expect(readCompareList()).toEqual([]);
    replaceCompareList([laptop(7)]);
    expect(readCompareList().map((item) => item.id)).toEqual([7]);
  });

  it("reads ?ids= as positive whole ids without repeats, at most 4", () => {
    expect(compareIdsOf("1,2, 2,x,-3,4.5,5,6,7")).toEqual([1, 2, 5, 6]);
    expect(compareIdsOf(null)).toEqual([]);
  });
});

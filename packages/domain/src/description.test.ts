import { describe, expect, it } from "vitest";
import { descriptionBullets, storedDescription } from "./description";

describe("storedDescription", () => {
  it.each([
    ["Fast SSD. Great value.", "Fast SSD. Great value. "],
    ["Fast SSD. Great value", "Fast SSD. Great value. "],
    ["  Fast SSD. Great value.   ", "Fast SSD. Great value. "],
    ["Fast SSD. ", "Fast SSD. "],
    ["   ", ""],
  ])("%j is stored as %j", (typed, stored) => {
    expect(storedDescription(typed)).toBe(stored);
  });

  it("loses no sentence to a client that drops the last fragment at '. ' (docs/product-rules.md §1)", () => {
    for (const typed of ["One. Two. Three.", "One. Two. Three", "One"]) {
      const fragments = storedDescription(typed).split(". ");
      expect(fragments.slice(0, -1)).toEqual(typed.replace(/\.$/, "").split(". "));
    }
  });
});

describe("descriptionBullets (docs/product-rules.md §1: sentences at '. ', the empty last fragment dropped)", () => {
  it("keeps every sentence of a stored description", () => {
    expect(descriptionBullets("Fast SSD. 1 TB of storage. Great value. ")).toEqual([
      "Fast SSD",
      "1 TB of storage",
      "Great value",
    ]);
  });

  it("keeps the last sentence of a description stored before the store ended them in '. '", () => {
    expect(descriptionBullets("Quiet keys. Long battery. 1 Year Warranty.")).toEqual([
      "Quiet keys",
      "Long battery",
      "1 Year Warranty",
    ]);
  });

  it("splits only at a period followed by a space, so numbers and abbreviations stay whole", () => {
    expect(descriptionBullets("Up to 3.5GHz boost.Fast. Backlit keyboard. ")).toEqual([
      "Up to 3.5GHz boost.Fast",
      "Backlit keyboard",
    ]);
  });

  it("keeps a description with a single sentence", () => {
    expect(descriptionBullets("A sturdy USB hub")).toEqual(["A sturdy USB hub"]);
  });

  it("trims fragments and leaves out empty ones", () => {
    expect(descriptionBullets("  One.  . Two. ")).toEqual(["One", "Two"]);
  });
});

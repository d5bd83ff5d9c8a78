import { describe, expect, it } from "vitest";
import { descriptionBullets } from "./description";

describe("descriptionBullets (SPEC.md §2: sentences at '. ', last fragment dropped)", () => {
  it("splits at '. ' and drops the last fragment", () => {
    expect(descriptionBullets("Fast SSD. 1 TB of storage. Great value.")).toEqual([
      "Fast SSD",
      "1 TB of storage",
    ]);
  });

  it("drops the last fragment even when it is a whole sentence without a final period", () => {
    expect(descriptionBullets("Quiet keys. Long battery. Comes in black")).toEqual([
      "Quiet keys",
      "Long battery",
    ]);
  });

  it("splits only at a period followed by a space, so numbers and abbreviations stay whole", () => {
    expect(descriptionBullets("Up to 3.5GHz boost.Fast. Backlit keyboard. End")).toEqual([
      "Up to 3.5GHz boost.Fast",
      "Backlit keyboard",
    ]);
  });

  it("keeps a description with a single sentence instead of showing nothing", () => {
    expect(descriptionBullets("A sturdy USB hub")).toEqual(["A sturdy USB hub"]);
  });

  it("trims fragments and leaves out empty ones", () => {
    expect(descriptionBullets("  One.  . Two. rest")).toEqual(["One", "Two"]);
  });
});

import { describe, expect, it } from "vitest";
import { formatDollars, roundHalfUp, toCents, toDollars } from "./money";

describe("money", () => {
  it.each([
    [212.69, 21269],
    [1.005, 101],
    [0.1 + 0.2, 30],
    [49.84, 4984],
    [0, 0],
    [1399.99, 139999],
  ])("toCents(%d) = %i", (dollars, cents) => expect(toCents(dollars)).toBe(cents));

  it("rounds halves up", () => {
    expect(roundHalfUp(2.5)).toBe(3);
    expect(roundHalfUp(2.4999)).toBe(2);
    expect(roundHalfUp(1678.4)).toBe(1678);
    expect(roundHalfUp(-2.5)).toBe(-3);
  });

  it("formats two decimals", () => {
    expect(formatDollars(1234.5)).toBe("1234.50");
    expect(formatDollars(toDollars(16784 / 10))).toBe("16.78");
    expect(formatDollars(0)).toBe("0.00");
  });
});

import { describe, expect, it } from "vitest";
import { checkoutIdOf, numberOf, orderNumber } from "./order-status";

describe("a purchase's number", () => {
  it("is V- and the paying checkout's id in six digits or more, and reads back", () => {
    expect(orderNumber(123)).toBe("V-000123");
    expect(orderNumber(1_234_567)).toBe("V-1234567");
    expect(numberOf(null)).toBeNull();
    expect(checkoutIdOf("V-000123")).toBe(123);
    expect(checkoutIdOf("123")).toBe(123);
    for (const wrong of ["", "V-", "V-0", "W-000123", "V-12.5", "V-99999999999", "-1"])
      expect(checkoutIdOf(wrong), wrong).toBeNull();
  });
});

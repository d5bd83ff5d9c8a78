import { describe, expect, it } from "vitest";
import { idSchema, integerInput, lineSchema, numberInput, queryBooleanSchema } from "./http";
import { z } from "zod";

describe("idSchema", () => {
  it.each([
    [7, 7],
    ["7", 7],
    ["2147483647", 2_147_483_647],
  ])("accepts %o", (input, id) => {
    expect(idSchema.parse(input)).toBe(id);
  });

  it.each([
    0,
    -1,
    1.5,
    2_147_483_648,
    "2147483648",
    "99999999999999999999",
    "0x10",
    "1e3",
    " 7",
    "",
    "07",
    "7 ",
    null,
    [7],
    {},
  ])("refuses %o", (input) => {
    expect(idSchema.safeParse(input).success).toBe(false);
  });

  it("says why", () => {
    const issue = idSchema.safeParse("2147483648").error!.issues[0]!;
    expect(issue.message).toBe("must be at most 2147483647");
    expect(idSchema.safeParse("abc").error!.issues[0]!.message).toBe("must be a number");
  });
});

describe("numbers as a form types them", () => {
  const money = numberInput(z.number().min(0));
  it("takes canonical decimals", () => {
    expect(money.parse("31.50")).toBe(31.5);
    expect(money.parse("0")).toBe(0);
    expect(integerInput(1, 100).parse("100")).toBe(100);
  });
  it.each(["31,50", "Infinity", "NaN", "0x1f", ".5", "5.", "+5", ""])("refuses %o", (input) => {
    expect(money.safeParse(input).success).toBe(false);
  });
});

describe("lineSchema and queryBooleanSchema", () => {
  it("trims text and refuses control characters", () => {
    expect(lineSchema(10).parse("  mouse ")).toBe("mouse");
    expect(lineSchema(10).safeParse("a\u0000b").success).toBe(false);
    expect(lineSchema(3).safeParse("four").success).toBe(false);
  });
  it("reads true and false only", () => {
    expect(queryBooleanSchema.parse("true")).toBe(true);
    expect(queryBooleanSchema.parse("false")).toBe(false);
    expect(queryBooleanSchema.safeParse("TRUE").success).toBe(false);
  });
});

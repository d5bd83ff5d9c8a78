import { describe, expect, it } from "vitest";
import { productInputSchema } from "@voltio/domain/admin";
import { EMPTY_DRAFT, refusalsOf } from "./product-draft";

const filled = {
  ...EMPTY_DRAFT,
  title: "Dock",
  name: "USB-C dock",
  price: "89.90",
  shippingCost: "0",
  description: "Ten ports",
  stock: "7",
  categories: ["Docks"],
};

/** The messages the form's schema gives for a draft, as the form shows them under the fields. */
const messagesOf = (draft: typeof filled) =>
  productInputSchema.safeParse(draft).error?.issues.map((issue) => issue.message) ?? [];

describe("refusalsOf", () => {
  it.each([
    ["a negative price alone", { price: "-1" }, ["negative"]],
    ["a negative shipping cost alone", { shippingCost: "-0.50" }, ["negative"]],
    ["a negative stock alone", { stock: "-3" }, ["negative"]],
    ["an empty name", { name: "" }, ["missing"]],
    ["an empty name and a negative price", { name: "", price: "-1" }, ["missing", "negative"]],
    ["three decimals", { price: "1.234" }, ["invalid"]],
  ] as const)("%s", (_case, change, expected) => {
    expect(refusalsOf(messagesOf({ ...filled, ...change }))).toEqual(expected);
  });

  it("a valid draft has no refusal", () => {
    expect(messagesOf(filled)).toEqual([]);
    expect(refusalsOf([])).toEqual([]);
  });
});

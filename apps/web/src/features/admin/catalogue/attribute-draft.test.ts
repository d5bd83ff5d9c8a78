import { describe, expect, it } from "vitest";
import { attributeInputOf, commaList, draftOfAttribute, emptyAttributeDraft } from "./attribute-draft";

describe("attributeInputOf", () => {
  it("sends a number attribute with its unit, better-when and position", () => {
    expect(
      attributeInputOf(7, {
        ...emptyAttributeDraft(2),
        key: " ram_gb ",
        label: "RAM",
        unit: " GB ",
        betterWhen: "higher",
        values: "ignored, for a number",
      }),
    ).toEqual({
      categoryId: 7,
      key: "ram_gb",
      label: "RAM",
      type: "number",
      unit: "GB",
      enumValues: [],
      filterable: true,
      betterWhen: "higher",
      position: 2,
    });
  });

  it("sends an enum's values as a list and never a better-when", () => {
    const input = attributeInputOf(3, {
      ...emptyAttributeDraft(0),
      key: "connection",
      label: "Connection",
      type: "enum",
      values: "Wired, Wireless,, Bluetooth ",
      betterWhen: "lower",
      filterable: false,
    });
    expect(input.enumValues).toEqual(["Wired", "Wireless", "Bluetooth"]);
    expect(input.betterWhen).toBeNull();
    expect(input.filterable).toBe(false);
    expect(input.unit).toBeNull();
  });

  it("leaves a position that is no whole number for the server to refuse by name", () => {
    expect(attributeInputOf(1, { ...emptyAttributeDraft(0), position: "" }).position).toBe(0);
    expect(attributeInputOf(1, { ...emptyAttributeDraft(0), position: "1.5" }).position).toBe("1.5");
  });

  it("reads an attribute back into the form unchanged", () => {
    const attribute = {
      id: 9,
      categoryId: 4,
      key: "dpi",
      label: "Resolution",
      type: "number" as const,
      unit: "DPI",
      enumValues: [],
      filterable: false,
      betterWhen: "higher" as const,
      position: 3,
    };
    const { id: _id, ...input } = attribute;
    expect(attributeInputOf(4, draftOfAttribute(attribute))).toEqual(input);
  });

  it("splits a comma list", () => {
    expect(commaList(" a ,b,, c")).toEqual(["a", "b", "c"]);
    expect(commaList("")).toEqual([]);
  });
});

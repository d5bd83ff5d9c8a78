import { describe, expect, it } from "vitest";
import { NEWSLETTER_MESSAGES } from "@voltio/domain/newsletter";
import { addTyped, ruleText } from "./receivers";

describe("addTyped: the receivers picker's chips after typing (docs/product-rules.md §9)", () => {
  it.each([
    { current: [], typed: "ana@example.com", chips: ["ana@example.com"] },
    { current: [], typed: "  ", chips: [] },
    { current: [], typed: "not-an-address", chips: [] },
    { current: ["ana@example.com"], typed: "ANA@Example.com", chips: ["ana@example.com"] },
    {
      current: [],
      typed: "a@example.com, b@example.com;c@example.com x",
      chips: ["a@example.com", "b@example.com", "c@example.com"],
    },
    { current: ["ana@example.com"], typed: "all", chips: ["All", "ana@example.com"] },
    { current: ["All"], typed: "All", chips: ["All"] },
    { current: [], typed: "ana@example", chips: [] },
  ])("$current + '$typed' → $chips", ({ current, typed, chips }) => {
    expect(addTyped(current, typed)).toEqual(chips);
  });
});

describe("ruleText", () => {
  const t = (key: string) => `«${key}»`;
  it("gives the domain's messages their translated text and leaves other reasons as they came", () => {
    expect(ruleText(t, NEWSLETTER_MESSAGES.subject)).toBe("«admin.newsletter.rules.subject»");
    expect(ruleText(t, NEWSLETTER_MESSAGES.noReceivers)).toBe("«admin.newsletter.rules.noReceivers»");
    expect(ruleText(t, "must be at most 200 characters")).toBe("must be at most 200 characters");
  });
});

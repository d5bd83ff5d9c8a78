import { afterEach, describe, expect, it } from "vitest";
import { checkoutPath, rememberChoice } from "./choice";

afterEach(() => sessionStorage.clear());

describe("the checkout a payment's 'Try again' goes back to (ADR 0015)", () => {
  it("is the choice the last Pay of this tab started from", () => {
    rememberChoice("?orders=12,13&bulk=4");
    expect(checkoutPath()).toBe("/purchase?orders=12,13&bulk=4");
  });

  it("is everything pending without a choice, or after a Pay of everything", () => {
    expect(checkoutPath()).toBe("/purchase");
    rememberChoice("?orders=12");
    rememberChoice("");
    expect(checkoutPath()).toBe("/purchase");
  });

  it("never carries anything but ids", () => {
    rememberChoice("?orders=12&next=https://evil.example");
    expect(checkoutPath()).toBe("/purchase");
    sessionStorage.setItem("voltio.purchase.choice", "?bulk=1//evil");
    expect(checkoutPath()).toBe("/purchase");
  });
});

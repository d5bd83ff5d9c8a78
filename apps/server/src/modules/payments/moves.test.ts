import { describe, expect, it } from "vitest";
import { Conflict } from "../../errors";
import { assertMove } from "./moves";

describe("the status guard", () => {
  it("lets the table's moves through", () => {
    expect(() => assertMove("checkout", null, "open", "shopper")).not.toThrow();
    expect(() => assertMove("checkout", "expired", "paid", "provider")).not.toThrow();
    expect(() => assertMove("payment", "rejected", "approved")).not.toThrow();
  });

  it("refuses any other as a conflict, naming it", () => {
    expect(() => assertMove("checkout", "paid", "open")).toThrow(Conflict);
    expect(() => assertMove("checkout", "replaced", "paid", "provider")).toThrow(
      "A checkout can't go from replaced to paid",
    );
    expect(() => assertMove("checkout", "open", "replaced", "provider")).toThrow(Conflict);
    expect(() => assertMove("payment", "approved", "rejected")).toThrow(
      "A payment can't go from approved to rejected",
    );
    expect(() => assertMove("payment", "refunded", "approved")).toThrow(Conflict);
  });
});

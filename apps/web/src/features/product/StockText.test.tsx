import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "@testing-library/react";
import { StockText } from "./StockText";

afterEach(cleanup);

describe("stock text (docs/product-rules.md §12)", () => {
  it.each([
    [0, "No stock available"],
    [1, "No stock available"],
    [2, "Stock: 2"],
    [100, "Stock: 100"],
  ])("stock %i reads '%s'", (stock, text) => {
    const { container } = render(<StockText stock={stock} />);
    expect(container.textContent).toBe(text);
  });
});

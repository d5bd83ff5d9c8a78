import { describe, expect, it } from "vitest";
import { productListQuerySchema } from "./catalog";

const fieldOf = (input: Record<string, string>) => {
  const result = productListQuerySchema.safeParse(input);
  return result.success ? null : result.error.issues.map((issue) => issue.path.join("."));
};

describe("productListQuerySchema", () => {
  it("applies defaults and converts query strings", () => {
    expect(productListQuerySchema.parse({})).toEqual({ offset: 1, limit: 16 });
    expect(
      productListQuerySchema.parse({
        offset: "3",
        limit: "100",
        minPrice: "10.5",
        freeShipping: "true",
        order: "DESC",
      }),
    ).toEqual({ offset: 3, limit: 100, minPrice: 10.5, freeShipping: true, order: "DESC" });
    expect(productListQuerySchema.parse({ freeShipping: "false" }).freeShipping).toBe(false);
  });

  it.each([
    [{ limit: "-1" }, "limit"],
    [{ limit: "0" }, "limit"],
    [{ limit: "1001" }, "limit"],
    [{ offset: "abc" }, "offset"],
    [{ offset: "0" }, "offset"],
    [{ order: "UP" }, "order"],
    [{ minPrice: "50", maxPrice: "10" }, "maxPrice"],
    [{ minPrice: "-5" }, "minPrice"],
    [{ categoryId: "x" }, "categoryId"],
    [{ freeShipping: "yes" }, "freeShipping"],
    [{ search: "x".repeat(101) }, "search"],
  ])("rejects %o on %s", (input, field) => {
    expect(fieldOf(input)).toEqual([field]);
  });
});

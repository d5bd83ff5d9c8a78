import { describe, expect, it } from "vitest";
import { ADMIN_LIMIT, adminListFilters } from "./list-filters";

const of = (query: string) => adminListFilters(new URLSearchParams(query));

describe("adminListFilters", () => {
  it("starts at the first page of 8 with out-of-stock products and no filter", () => {
    expect(of("")).toEqual({
      search: undefined,
      categoryId: undefined,
      brand: undefined,
      maxStock: undefined,
      limit: ADMIN_LIMIT,
      offset: 1,
      includeOutOfStock: true,
    });
  });

  it("reads a brand's slug and a low-stock threshold, sold out (0) included", () => {
    expect(of("brand=logitech&maxStock=5&categoryId=3&offset=2")).toMatchObject({
      brand: "logitech",
      maxStock: 5,
      categoryId: 3,
      offset: 2,
    });
    expect(of("maxStock=0").maxStock).toBe(0);
    expect(of("brand=%20western-digital%20").brand).toBe("western-digital");
  });

  it("drops what the server would refuse instead of sending it", () => {
    expect(of("maxStock=-1").maxStock).toBeUndefined();
    expect(of("maxStock=2.5").maxStock).toBeUndefined();
    expect(of("maxStock=").maxStock).toBeUndefined();
    expect(of("maxStock=lots").maxStock).toBeUndefined();
    expect(of(`brand=${"a".repeat(61)}`).brand).toBeUndefined();
    expect(of("brand=").brand).toBeUndefined();
    expect(of("categoryId=x&offset=0&limit=-3")).toMatchObject({
      categoryId: undefined,
      offset: 1,
      limit: ADMIN_LIMIT,
    });
  });
});

import { describe, expect, it } from "vitest";
import { listingApiPath } from "@voltio/domain/listing";
import { toQuery } from "@/api/client";
import {
  filtersFrom,
  pageNumbers,
  withFreeShippingToggled,
  withOrderToggled,
  withoutFilters,
  withPage,
  withPrice,
} from "./listing-query";

const query = (text: string) => new URLSearchParams(text);

describe("listing state in the URL (docs/product-rules.md §1)", () => {
  it("reads every filter from the query and ignores bad values", () => {
    expect(
      filtersFrom(
        query("search=mouse&categoryId=6&offset=2&minPrice=10&maxPrice=50&freeShipping=true&order=DESC"),
      ),
    ).toEqual({
      search: "mouse",
      categoryId: 6,
      offset: 2,
      limit: undefined,
      minPrice: 10,
      maxPrice: 50,
      freeShipping: true,
      order: "DESC",
    });
    expect(
      filtersFrom(query("categoryId=abc&offset=-3&minPrice=&order=up&freeShipping=false")),
    ).toMatchObject({
      categoryId: undefined,
      offset: 1,
      minPrice: undefined,
      order: undefined,
      freeShipping: undefined,
    });
  });

  it("price: sets Min and Max, drops empty values, goes back to page 1", () => {
    expect(withPrice(query("categoryId=4&offset=3"), "20", "").toString()).toBe(
      "categoryId=4&offset=1&minPrice=20",
    );
    expect(withPrice(query("minPrice=20&maxPrice=90&offset=1"), " ", "90").toString()).toBe(
      "maxPrice=90&offset=1",
    );
  });

  it("free shipping: true, then false when it was true", () => {
    const on = withFreeShippingToggled(query("offset=2"));
    expect(on.get("freeShipping")).toBe("true");
    expect(on.get("offset")).toBe("1");
    expect(withFreeShippingToggled(on).get("freeShipping")).toBe("false");
    expect(withFreeShippingToggled(withFreeShippingToggled(on)).get("freeShipping")).toBe("true");
  });

  it("sort: ASC and DESC exclude each other; choosing the same one again clears the order", () => {
    const ascending = withOrderToggled(query("search=ssd&offset=1"), "ASC");
    expect(ascending.get("order")).toBe("ASC");
    expect(withOrderToggled(ascending, "DESC").get("order")).toBe("DESC");
    expect(withOrderToggled(ascending, "ASC").has("order")).toBe(false);
    expect(withOrderToggled(ascending, "ASC").get("search")).toBe("ssd");
  });

  it("clearing the filters keeps the search and the category", () => {
    expect(
      withoutFilters(
        query("search=hp&categoryId=1&minPrice=1&maxPrice=2&freeShipping=true&order=ASC&offset=4"),
      ).toString(),
    ).toBe("search=hp&categoryId=1&offset=1");
  });

  it("pages keep the filters", () => {
    expect(withPage(query("order=ASC&offset=1"), 3).toString()).toBe("order=ASC&offset=3");
  });

  it("the page bar shows the ends and the neighbours of the current page", () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(1, 4)).toEqual([1, 2, "gap", 4]);
    expect(pageNumbers(5, 10)).toEqual([1, "gap", 4, 5, 6, "gap", 10]);
    expect(pageNumbers(10, 10)).toEqual([1, "gap", 9, 10]);
  });
});

describe("the server-rendered listing's embedded products (boot data)", () => {
  it("sit under the API path the grid's query asks, whatever the page's query says", () => {
    for (const text of [
      "offset=1",
      "",
      "categoryId=6&offset=2",
      "search=%20mouse%20pad%20&offset=1&order=RATING",
      "offset=3&minPrice=10&maxPrice=50.5&freeShipping=true&limit=8",
      "freeShipping=false&order=bad&categoryId=-1&offset=0&utm=x",
      "search=caf%C3%A9+%26+t%C3%A9&offset=1",
    ]) {
      const params = query(text);
      // Without facet filters (facet-query.test.ts has those) every value is a single one.
      const { brand, spec, ...single } = filtersFrom(params);
      expect([brand, spec]).toEqual([undefined, undefined]);
      expect(listingApiPath(params), text).toBe(`/products${toQuery({ ...single })}`);
    }
  });
});

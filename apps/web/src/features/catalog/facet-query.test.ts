import { describe, expect, it } from "vitest";
import { listingApiPath, listingFacetsPath } from "@voltio/domain/listing";
import {
  facetFilterCount,
  withInStockToggled,
  withMinRating,
  withRange,
  withValueToggled,
  withoutFacets,
} from "./facet-query";

const query = (text: string) => new URLSearchParams(text);

describe("the facet filters in the listing's URL", () => {
  it("a checkbox adds its value to the repeated parameter, and takes it out again, on page 1", () => {
    const once = withValueToggled(query("categoryId=2&offset=3&brand=acme"), "brand", "logitech");
    expect(once.toString()).toBe("categoryId=2&offset=1&brand=acme&brand=logitech");
    expect(withValueToggled(once, "brand", "acme").toString()).toBe("categoryId=2&offset=1&brand=logitech");
  });

  it("a range sets its bounds and removes an empty one", () => {
    const ranged = withRange(query("offset=2"), "ram_gb", " 16 ", "");
    expect(ranged.toString()).toBe("offset=1&spec.ram_gb.min=16");
    expect(withRange(ranged, "ram_gb", "", "64").toString()).toBe("offset=1&spec.ram_gb.max=64");
  });

  it("the rating and availability filters toggle, and all of them clear together", () => {
    const rated = withInStockToggled(withMinRating(query("offset=1&search=mouse"), "4"));
    expect(rated.get("minRating")).toBe("4");
    expect(rated.get("inStock")).toBe("true");
    expect(withMinRating(rated, "4").has("minRating")).toBe(false);
    const all = withValueToggled(withRange(rated, "dpi", "800", ""), "spec.connection", "Wireless");
    expect(facetFilterCount(all)).toBe(4);
    expect(withoutFacets(all).toString()).toBe("offset=1&search=mouse");
  });
});

describe("the API paths a filtered listing asks (and the server's render embeds)", () => {
  it("write the facet filters after the others, in a fixed order whatever the URL's", () => {
    const a = query(
      "brand=b&spec.ram_gb.min=16&offset=1&brand=a&spec.connection=Wired&inStock=true&minRating=4",
    );
    const b = query(
      "minRating=4&inStock=true&spec.connection=Wired&brand=a&brand=b&offset=1&spec.ram_gb.min=16",
    );
    const path =
      "/products?offset=1&minRating=4&inStock=true&brand=a&brand=b&spec.connection=Wired&spec.ram_gb.min=16";
    expect(listingApiPath(a)).toBe(path);
    expect(listingApiPath(b)).toBe(path);
  });

  it("drop what isn't a filter: bad ranges, an unknown key form, ratings out of 1..5", () => {
    expect(listingApiPath(query("spec.ram_gb.min=x&spec.Bad=1&spec.a.b.c=1&minRating=9&inStock=yes"))).toBe(
      "/products?offset=1",
    );
  });

  it("ask the facet counts without the page or the sort, for one product", () => {
    expect(listingFacetsPath(query("categoryId=2&offset=3&order=ASC&brand=acme"))).toBe(
      "/products?categoryId=2&offset=1&limit=1&brand=acme&facets=true",
    );
  });
});

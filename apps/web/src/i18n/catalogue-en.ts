/**
 * English texts of the catalogue's brands, specifications, variants, facet filters and compare (issue 41):
 * a pack of their own (i18n/index.ts), loaded with the listing, product and compare pages only, so the home
 * page's entry stays within its weight budget. Spanish mirrors every key (catalogue-es.ts).
 */
export const catalogueEn = {
  specs: {
    heading: "Specifications",
    brand: "Brand",
    none: "No specifications given for this product.",
  },
  compare: {
    add: "Add to compare",
    added: "In compare list",
    remove: "Remove {{title}} from the comparison",
    removeShort: "Remove",
    added_toast: "Added to the comparison",
    removed_toast: "Removed from the comparison",
    full: "You can compare up to {{max}} products. Remove one first.",
    otherCategory:
      "You can only compare products of one category ({{category}}). Remove those first or compare them separately.",
    link_one: "Compare ({{count}})",
    link_other: "Compare ({{count}})",
    title: "Compare products",
    empty: "Nothing to compare yet",
    emptyHint: "Add up to 4 products of one category from their pages with “Add to compare”.",
    browse: "Browse products",
    one: "Add another product of the same category to compare them side by side.",
    feature: "Specification",
    price: "Price",
    rating: "Rating",
    brand: "Brand",
    best: "Best",
    bestValue: "best value",
    differs: "Differs",
    differsHint:
      "Rows that differ are highlighted; “Best” marks the best value where more or less is better.",
    onlyDifferences: "Show only differences",
    notGiven: "—",
    notGivenSr: "not given",
    clear: "Clear comparison",
    failed: "These products can't be compared",
  },
  facets: {
    brand: "Brand",
    rating: "Customer rating",
    ratingAtLeast: "{{stars}} stars & up",
    availability: "Availability",
    inStock: "In stock",
    count: "({{count}})",
    countSr_one: "{{count}} product",
    countSr_other: "{{count}} products",
    min: "Min",
    max: "Max",
    rangeLabel: "{{label}} ({{unit}})",
    apply: "Apply",
    showResults_one: "Show {{count}} product",
    showResults_other: "Show {{count}} products",
    close: "Close filters",
  },
};

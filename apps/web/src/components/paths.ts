/** docs/product-rules.md §1: a category's listing, from its first page; the header, the home page and the product page link to it. */
export const categoryListingPath = (categoryId: number) => `/products?categoryId=${categoryId}&offset=1`;

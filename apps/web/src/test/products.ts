import type { Product } from "@voltio/domain/catalog";

/** A product as the storefront keeps it in a guest list: price 10 × id, shipping 2, stock 5, no sales. */
export const productSnapshot = (id: number, values: Partial<Product> = {}) => ({
  id,
  title: `Product ${id}`,
  price: 10 * id,
  shippingCost: 2,
  stock: 5,
  description: "A product.",
  images: [] as Product["images"],
  sales: { productSales: [], categorySales: [] } as Product["sales"],
  ...values,
});

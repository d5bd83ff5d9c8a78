import { relations } from "drizzle-orm";
import {
  categories,
  comments,
  directions,
  orders,
  productCategories,
  productImages,
  products,
  saleCategories,
  saleProducts,
  sales,
  users,
} from "./schema";

/** Relations for drizzle's relational queries: one SQL statement per product list, whatever it includes. */

export const usersRelations = relations(users, ({ many }) => ({
  directions: many(directions),
  orders: many(orders),
}));
export const directionsRelations = relations(directions, ({ one }) => ({
  user: one(users, { fields: [directions.userId], references: [users.id] }),
}));
export const productsRelations = relations(products, ({ many }) => ({
  images: many(productImages),
  categories: many(productCategories),
  sales: many(saleProducts),
  comments: many(comments),
}));
export const productImagesRelations = relations(productImages, ({ one }) => ({
  product: one(products, { fields: [productImages.productId], references: [products.id] }),
}));
export const categoriesRelations = relations(categories, ({ many }) => ({
  products: many(productCategories),
  sales: many(saleCategories),
}));
export const productCategoriesRelations = relations(productCategories, ({ one }) => ({
  product: one(products, { fields: [productCategories.productId], references: [products.id] }),
  category: one(categories, { fields: [productCategories.categoryId], references: [categories.id] }),
}));
export const salesRelations = relations(sales, ({ many }) => ({
  products: many(saleProducts),
  categories: many(saleCategories),
}));
export const saleProductsRelations = relations(saleProducts, ({ one }) => ({
  sale: one(sales, { fields: [saleProducts.saleId], references: [sales.id] }),
  product: one(products, { fields: [saleProducts.productId], references: [products.id] }),
}));
export const saleCategoriesRelations = relations(saleCategories, ({ one }) => ({
  sale: one(sales, { fields: [saleCategories.saleId], references: [sales.id] }),
  category: one(categories, { fields: [saleCategories.categoryId], references: [categories.id] }),
}));
export const ordersRelations = relations(orders, ({ one }) => ({
  user: one(users, { fields: [orders.userId], references: [users.id] }),
  product: one(products, { fields: [orders.productId], references: [products.id] }),
}));
export const commentsRelations = relations(comments, ({ one }) => ({
  user: one(users, { fields: [comments.userId], references: [users.id] }),
  product: one(products, { fields: [comments.productId], references: [products.id] }),
}));

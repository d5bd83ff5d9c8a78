import { describe, expect, it } from "vitest";
import type { SaleTerms } from "@voltio/domain/discount";
import type { OrderedProduct } from "@voltio/domain/orders";
import { priceToday } from "@voltio/domain/pricing";
import type { GuestLine } from "./guest-lists";
import { guestListLine, saleOfServerLine, serverListLine, totalAtAmount } from "./list-lines";

/** The demo store's 'Buy two mouses, get the third one free!': 100% on the 3rd unit, every day. */
const thirdFree: SaleTerms = { id: 2, percentage: 100, day: "all", productAmount: 2 };
const fridays: SaleTerms = { id: 1, percentage: 10, day: "fri", productAmount: 0 };

const mouse: GuestLine = {
  id: 11,
  productId: 11,
  status: "inCart",
  amount: 3,
  title: "Logitech M510",
  price: 29.99,
  shippingCost: 12.99,
  stock: 100,
  description: "A mouse.",
  images: [{ url: "/m510.png", altText: "" }],
  sales: { productSales: [], categorySales: [thirdFree] },
};

describe("a guest's line, priced in the browser", () => {
  it("applies the 'on Nth unit' sale to the line total, not to the unit price", () => {
    const line = guestListLine(mouse, priceToday(mouse, [], "mon"));
    expect(line.price).toMatchObject({ unitCents: 2999, originalCents: 2999, sale: thirdFree });
    expect(line.totalCents).toBe(5998);
    expect(line.shippingCents).toBe(1299);
    expect(line.orderId).toBeNull();
    expect(totalAtAmount(line, 2)).toBe(5998);
    expect(totalAtAmount(line, 4)).toBe(8997);
  });

  it("has no price until the store's day and sales are known", () => {
    const line = guestListLine(mouse, null);
    expect(line.totalCents).toBeNull();
    expect(totalAtAmount(line, 2)).toBeNull();
  });
});

describe("a signed-in shopper's line, priced by the server", () => {
  const product = {
    id: 11,
    title: "Logitech M510",
    description: "A mouse.",
    price: 29.99,
    stock: 100,
    images: [{ url: "/m510.png", altText: "" }],
    sales: { productSales: [], categorySales: [thirdFree] },
  } as unknown as OrderedProduct;
  const order = {
    id: 7,
    variantId: 70,
    variant: { id: 70, sku: "P70", options: {}, name: "Logitech M510" },
    amount: 3,
    status: "inCart" as const,
    bulkOrderId: null,
    number: null,
    localPurchaseDate: null,
    unitPrice: 29.99,
    lineTotal: 59.98,
    shipping: 12.99,
    salePercentage: 100,
    discountedUnits: 1,
  };

  it("shows the server's prices and finds the sale behind its percentage for the badge", () => {
    const line = serverListLine(product, order, [fridays], "mon");
    expect(line).toMatchObject({ orderId: 7, amount: 3, totalCents: 5998, shippingCents: 1299 });
    expect(line.price?.sale).toEqual(thirdFree);
  });

  it("keeps the percentage alone when the browser doesn't know the server's sale", () => {
    expect(saleOfServerLine(product, 35, [fridays], "mon")).toMatchObject({
      percentage: 35,
      productAmount: 0,
    });
    expect(saleOfServerLine(product, null, [fridays], "fri")).toBeNull();
  });
});

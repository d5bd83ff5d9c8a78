import { afterEach, describe, expect, it } from "vitest";
import {
  addToGuestList,
  changeGuestAmount,
  completeGuestDescriptions,
  isInGuestList,
  moveGuestLineToCart,
  readGuestList,
  removeFromGuestList,
  toggleInGuestList,
} from "./guest-lists";
import { productSnapshot } from "@/test/products";

const product = (id: number) =>
  productSnapshot(id, { images: [{ url: `/illustrations/mouse/${id}.svg`, altText: `Product ${id}` }] });

afterEach(() => localStorage.clear());

describe("guest cart and wishlist in localStorage (docs/product-rules.md §13, §8)", () => {
  it("adds a product snapshot with status and amount 1 under inCart", () => {
    addToGuestList("inCart", product(3));
    const stored = JSON.parse(localStorage.getItem("inCart")!);
    expect(stored).toEqual([
      expect.objectContaining({
        productId: 3,
        id: 3,
        status: "inCart",
        amount: 1,
        title: "Product 3",
        price: 30,
      }),
    ]);
    expect(localStorage.getItem("inWishList")).toBeNull();
  });

  it("keeps each chosen variant on a line of its own, named, priced and counted as the variant", () => {
    const black = { id: 31, name: "Product 3 — Black", price: 30, stock: 2, images: [] };
    const white = { id: 32, name: "Product 3 — White", price: 35, stock: 1, images: [] };
    addToGuestList("inWishList", product(3), 1, black);
    addToGuestList("inWishList", product(3), 1, white);
    addToGuestList("inWishList", product(3), 1, white);
    expect(readGuestList("inWishList")).toEqual([
      expect.objectContaining({
        productId: 3,
        variantId: 31,
        title: "Product 3 — Black",
        price: 30,
        stock: 2,
      }),
      expect.objectContaining({
        productId: 3,
        variantId: 32,
        title: "Product 3 — White",
        price: 35,
        stock: 1,
      }),
    ]);
    expect(isInGuestList("inWishList", 3, 32)).toBe(true);
    expect(isInGuestList("inWishList", 3)).toBe(false);

    moveGuestLineToCart(3, 32);
    addToGuestList("inWishList", product(3), 1, white);
    // White has one unit: a second move leaves the cart line at one.
    moveGuestLineToCart(3, 32);
    expect(readGuestList("inCart")).toEqual([expect.objectContaining({ variantId: 32, amount: 1 })]);
    expect(readGuestList("inWishList")).toEqual([expect.objectContaining({ variantId: 31 })]);
    changeGuestAmount("inCart", 3, -1, 32);
    expect(readGuestList("inCart")).toEqual([]);
  });

  it("toggles: the second press removes the product", () => {
    expect(toggleInGuestList("inWishList", product(1))).toBe(true);
    expect(isInGuestList("inWishList", 1)).toBe(true);
    expect(toggleInGuestList("inWishList", product(1))).toBe(false);
    expect(readGuestList("inWishList")).toEqual([]);
  });

  it("does not add the same product twice", () => {
    addToGuestList("inCart", product(1));
    addToGuestList("inCart", product(1));
    expect(readGuestList("inCart")).toHaveLength(1);
  });

  it("changes the amount by a delta and drops the line when it would fall below 1", () => {
    addToGuestList("inCart", product(1));
    addToGuestList("inCart", product(2));
    changeGuestAmount("inCart", 1, +2);
    expect(readGuestList("inCart").find((line) => line.productId === 1)?.amount).toBe(3);
    changeGuestAmount("inCart", 2, -1);
    expect(readGuestList("inCart").map((line) => line.productId)).toEqual([1]);
  });

  it("removes one line and keeps the others", () => {
    addToGuestList("inCart", product(1));
    addToGuestList("inCart", product(2));
    removeFromGuestList("inCart", 1);
    expect(readGuestList("inCart").map((line) => line.productId)).toEqual([2]);
  });

  it("survives a damaged value in storage", () => {
    localStorage.setItem("inCart", "{not json");
    expect(readGuestList("inCart")).toEqual([]);
    localStorage.setItem("inCart", JSON.stringify([{ productId: 1, amount: 1 }, "junk", null]));
    expect(readGuestList("inCart")).toHaveLength(1);
  });

  it("returns the same array while the storage is unchanged (stable for React)", () => {
    addToGuestList("inCart", product(1));
    expect(readGuestList("inCart")).toBe(readGuestList("inCart"));
  });
});

describe("a line added from a listing drawn without descriptions (api/boot-data.ts)", () => {
  it("gets its product's description; lines that have one are left alone, and a failed fetch leaves it for later", async () => {
    addToGuestList("inWishList", { ...product(3), description: "" });
    addToGuestList("inWishList", { ...product(4), description: "" });
    addToGuestList("inWishList", product(5));
    const asked: number[] = [];
    completeGuestDescriptions("inWishList", async (id) => {
      asked.push(id);
      if (id === 4) throw new Error("offline");
      return `The description of ${id}`;
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toEqual([3, 4]);
    expect(readGuestList("inWishList").map((line) => line.description)).toEqual([
      "The description of 3",
      "",
      product(5).description,
    ]);
  });

  it("asks once per line while its description is on its way, however many lists show it", async () => {
    addToGuestList("inCart", { ...product(6), description: "" });
    const asked: number[] = [];
    const fetchDescription = async (id: number) => {
      asked.push(id);
      return `The description of ${id}`;
    };
    completeGuestDescriptions("inCart", fetchDescription);
    completeGuestDescriptions("inCart", fetchDescription);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toEqual([6]);
    expect(readGuestList("inCart")[0]!.description).toBe("The description of 6");
  });
});

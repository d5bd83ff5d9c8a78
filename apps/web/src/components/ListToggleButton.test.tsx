import { afterEach, describe, expect, it } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { ListToggleButton } from "./ListToggleButton";
import { ToastHost } from "./ui/ToastHost";

const product = {
  id: 11,
  title: "Logitech M510",
  price: 29.99,
  shippingCost: 12.99,
  stock: 100,
  description: "A mouse.",
  images: [],
  sales: { productSales: [], categorySales: [] },
};

/** A guest's session: the toggles hide themselves for admins, so they read it. */
const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
);

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe("cart and wishlist toggles (SPEC.md §2 Buttons, §4)", () => {
  it("'Add to cart' adds to the guest cart, reads 'Added to the cart' and toasts 'Added to the cart !'", async () => {
    render(
      <>
        <ListToggleButton list="inCart" product={product} variant="full" />
        <ToastHost />
      </>,
      { wrapper },
    );
    fireEvent.click(screen.getByRole("button", { name: "Add to cart" }));
    expect(screen.getByRole("button", { name: "Added to the cart" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    expect(JSON.parse(localStorage.getItem("inCart")!)[0]).toMatchObject({ productId: 11, amount: 1 });
    expect(await screen.findByText("Added to the cart !")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Added to the cart" }));
    expect(localStorage.getItem("inCart")).toBeNull();
    expect(await screen.findByText("Removed from the cart !")).toBeTruthy();
  });

  it("the heart adds to and removes from the wishlist with the SPEC's toasts", async () => {
    render(
      <>
        <ListToggleButton list="inWishList" product={product} />
        <ToastHost />
      </>,
      { wrapper },
    );
    fireEvent.click(screen.getByRole("button", { name: "Add Logitech M510 to the wishlist" }));
    expect(JSON.parse(localStorage.getItem("inWishList")!)).toHaveLength(1);
    expect(await screen.findByText("Added to the wishlist !")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Remove Logitech M510 from the wishlist" }));
    expect(localStorage.getItem("inWishList")).toBeNull();
    expect(await screen.findByText("Removed from wishlist !")).toBeTruthy();
  });
});

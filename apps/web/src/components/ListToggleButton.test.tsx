import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { tokens } from "@/api/tokens";
import { ListToggleButton } from "./ListToggleButton";
import { ToastHost } from "./ui/ToastHost";
import { jsonReply as json } from "@/test/fake-api";

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

describe("cart and wishlist toggles (docs/product-rules.md §1 Buttons, §8)", () => {
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

describe("a signed-in shopper's toggles write the server", () => {
  let cart: { id: number; amount: number; status: string; bulkOrderId: number | null }[];
  let postAnswer: () => Response;

  beforeEach(() => {
    cart = [];
    postAnswer = () => {
      cart = [{ id: 7, amount: 1, status: "inCart", bulkOrderId: null }];
      return json(201, { id: 7, status: "inCart", amount: 1, productId: 11 });
    };
    tokens.set("access-1", "refresh-1");
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (url === "/api/user") return json(200, { id: 2, firstName: "Sam", rol: "user" });
        if (url.startsWith("/api/order?"))
          return json(200, cart.length ? [{ ...product, orders: cart }] : []);
        if (url === "/api/order" && init.method === "POST") return postAnswer();
        if (url === "/api/order/7" && init.method === "DELETE") {
          cart = [];
          return json(200, { msg: "Order deleted" });
        }
        return json(404, { error: "Not Found" });
      }),
    );
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    tokens.clear();
  });

  it("adds and removes the cart line on the server with the SPEC's toasts, leaving the storage alone", async () => {
    render(
      <>
        <ListToggleButton list="inCart" product={product} variant="full" />
        <ToastHost />
      </>,
      { wrapper },
    );
    await waitFor(() =>
      expect(vi.mocked(fetch)).toHaveBeenCalledWith("/api/order?status=inCart,inWishList", expect.anything()),
    );
    fireEvent.click(await screen.findByRole("button", { name: "Add to cart" }));
    expect(await screen.findByText("Added to the cart !")).toBeTruthy();
    fireEvent.click(await screen.findByRole("button", { name: "Added to the cart" }));
    expect(await screen.findByText("Removed from the cart !")).toBeTruthy();
    expect(await screen.findByRole("button", { name: "Add to cart" })).toBeTruthy();
    expect(localStorage.getItem("inCart")).toBeNull();
  });

  it("a refusal for stock rolls the button back and toasts the server's message", async () => {
    postAnswer = () => json(409, { error: "Out of stock", stock: 0 });
    render(
      <>
        <ListToggleButton list="inCart" product={product} variant="full" />
        <ToastHost />
      </>,
      { wrapper },
    );
    await waitFor(() =>
      expect(vi.mocked(fetch)).toHaveBeenCalledWith("/api/order?status=inCart,inWishList", expect.anything()),
    );
    fireEvent.click(screen.getByRole("button", { name: "Add to cart" }));
    expect(screen.getByRole("button", { name: "Added to the cart" })).toBeTruthy();
    expect(await screen.findByText("Out of stock")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add to cart" }).getAttribute("aria-pressed")).toBe("false");
  });
});

import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { SaleTerms } from "@voltio/domain/discount";
import type { GuestLine } from "@/api/guest-lists";
import { ToastHost } from "@/components/ui/ToastHost";
import { CartPage } from "./CartPage";
import { loadTexts } from "@/i18n";

// The router loads the page with its texts (app/router.tsx); rendered alone, the test loads them.
beforeAll(() => loadTexts("shopping"));

const thirdFree: SaleTerms = { id: 2, percentage: 100, day: "all", productAmount: 2 };

const line = (productId: number, fields: Partial<GuestLine>): GuestLine => ({
  id: productId,
  productId,
  status: "inCart",
  amount: 1,
  title: `Product ${productId}`,
  price: 10,
  shippingCost: 0,
  stock: 100,
  description: "",
  images: [],
  sales: { productSales: [], categorySales: [] },
  ...fields,
});

/** A guest (no tokens) on a Monday without global sales: the queries the page prices with are answered. */
function renderGuestCart(lines: GuestLine[]) {
  localStorage.setItem("inCart", JSON.stringify(lines));
  const client = new QueryClient();
  client.setQueryData(["store"], { today: "mon" });
  client.setQueryData(["sales"], []);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter>{children}</MemoryRouter>
    </QueryClientProvider>
  );
  return render(
    <>
      <CartPage />
      <ToastHost />
    </>,
    { wrapper },
  );
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe("a guest's cart page (docs/product-rules.md §1 Cart, §8 Guest amount change)", () => {
  it("shows each line per SPEC and a summary of products, every line's shipping added up and the total (ADR 0015)", () => {
    renderGuestCart([
      line(11, {
        title: "Logitech M510",
        price: 29.99,
        shippingCost: 12.99,
        amount: 3,
        stock: 40,
        sales: { productSales: [], categorySales: [thirdFree] },
      }),
      line(12, { title: "NexiGo N60", price: 39.99, shippingCost: 0 }),
    ]);
    const mouse = screen.getAllByRole("listitem")[0]!;
    expect(within(mouse).getByRole("link", { name: "Logitech M510" }).getAttribute("href")).toBe(
      "/product/11",
    );
    expect(within(mouse).getByText("ShippingCost: $12.99")).toBeTruthy();
    expect(within(mouse).getByText("Stock: 40")).toBeTruthy();
    expect(within(mouse).getByText("100% OFF on 3º unit")).toBeTruthy();
    // Three mice, the third free: 2 × 29.99.
    expect(within(mouse).getByText("$59.98")).toBeTruthy();
    expect(screen.getByText("Free shipping")).toBeTruthy();
    expect(screen.getByTestId("cart-products").textContent).toBe("$99.97");
    expect(screen.getByTestId("cart-shipping").textContent).toBe("$12.99");
    expect(screen.getByTestId("cart-total").textContent).toBe("$112.96");
    expect(screen.getByText("(each product ships on its own)")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Login to add an address" }).getAttribute("href")).toBe("/login");
  });

  it("plus and minus change the stored amount; below 1 the line goes; x removes with a toast", async () => {
    renderGuestCart([line(11, { title: "Logitech M510", price: 29.99 }), line(12, { title: "NexiGo N60" })]);
    fireEvent.click(screen.getByRole("button", { name: "One more Logitech M510" }));
    expect(JSON.parse(localStorage.getItem("inCart")!)[0]).toMatchObject({ productId: 11, amount: 2 });
    expect(screen.getByTestId("cart-total").textContent).toBe("$69.98");

    fireEvent.click(screen.getByRole("button", { name: "One less Logitech M510" }));
    fireEvent.click(screen.getByRole("button", { name: "One less Logitech M510" }));
    expect(screen.queryByText("Logitech M510")).toBeNull();
    expect(screen.getByTestId("cart-total").textContent).toBe("$10.00");

    fireEvent.click(screen.getByRole("button", { name: "Remove NexiGo N60 from the cart" }));
    expect(await screen.findByText("Deleted from cart!")).toBeTruthy();
    expect(screen.getByText("This cart is empty")).toBeTruthy();
    expect(localStorage.getItem("inCart")).toBeNull();
  });

  it("a guest's plus stops at the stock and says how many are left", async () => {
    renderGuestCart([line(11, { title: "Logitech M510", amount: 2, stock: 2 })]);
    fireEvent.click(screen.getByRole("button", { name: "One more Logitech M510" }));
    expect(await screen.findByText("Only 2 left")).toBeTruthy();
    expect(JSON.parse(localStorage.getItem("inCart")!)[0]).toMatchObject({ amount: 2 });
  });

  it("Buy All asks a guest to log in", async () => {
    renderGuestCart([line(11, {})]);
    fireEvent.click(screen.getByRole("button", { name: "Buy All" }));
    expect(
      await screen.findByRole("dialog", { name: "You must be logged in to perform this action!" }),
    ).toBeTruthy();
    expect(screen.getByRole("link", { name: "Log in/Sign up" }).getAttribute("href")).toBe("/login");
  });
});

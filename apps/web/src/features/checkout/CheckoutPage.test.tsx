import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, useLocation } from "react-router";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { User } from "@voltio/domain/account";
import type { OrderedProduct, ProductOrder } from "@voltio/domain/orders";
import { ToastHost } from "@/components/ui/ToastHost";
import { loadTexts } from "@/i18n";
import { fakeSignedInApi, jsonReply as json } from "@/test/fake-api";
import { CheckoutPage } from "./CheckoutPage";

// The router loads the page with its texts (app/router.tsx); rendered alone, the test loads them.
beforeAll(() => loadTexts("shopping"));

const shopper: User = {
  id: 5,
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  rol: "user",
  profilePicture: "",
  googleUser: false,
  newsletterSubscription: false,
  directions: [
    {
      id: 3,
      city: "Lisbon",
      street: "Rua Augusta",
      streetNumber: 100,
      floor: null,
      unit: null,
      postalCode: "1",
    },
  ],
} as User;

const pendingLine = (id: number, amount: number): ProductOrder => ({
  id,
  variantId: id,
  variant: { id, sku: `P${id}`, options: {}, name: `Product ${id}` },
  amount,
  status: "pending",
  bulkOrderId: null,
  number: null,
  localPurchaseDate: null,
  unitPrice: 10,
  lineTotal: 10 * amount,
  shipping: 0,
  salePercentage: null,
  discountedUnits: 0,
});

/** A product sold one way: its lines' variant is named by its title. */
const product = (id: number, title: string, orders: ProductOrder[]) =>
  ({
    id,
    title,
    images: [],
    orders: orders.map((order) => ({ ...order, variant: { ...order.variant, name: title } })),
  }) as unknown as OrderedProduct;

/** The server's pending lines and every request the page made, method and path. */
let pending: OrderedProduct[];
let requests: string[];
let payReply: () => Response;

beforeEach(() => {
  requests = fakeSignedInApi((url, init) => {
    const method = init.method ?? "GET";
    if (url === "/api/store") return json(200, { today: "mon", paymentProvider: "sandbox" });
    if (url === "/api/order?status=pending") return json(200, pending);
    if (url === "/api/order/bulk?status=pending") return json(200, []);
    if (url === "/api/sandbox/pay") return payReply();
    const line = /^\/api\/order\/(\d+)$/.exec(url);
    if (line && (method === "PUT" || method === "DELETE")) {
      const id = Number(line[1]);
      pending = pending
        .map((item) => ({ ...item, orders: item.orders.filter((order) => order.id !== id) }))
        .filter((item) => item.orders.length > 0);
      return json(200, {});
    }
    if (url === "/api/order" && method === "POST") {
      const { productId, amount } = JSON.parse(init.body as string) as {
        productId: number;
        amount: number;
      };
      const added = pendingLine(99, amount);
      pending = [...pending, product(productId, "Webcam", [added])];
      return json(201, added);
    }
    return json(404, { error: "Not Found" });
  });
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.search}</output>;
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(["user", "me"], shopper);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
  return render(
    <>
      <CheckoutPage />
      <Address />
      <ToastHost />
    </>,
    { wrapper },
  );
}

const readsOfPending = () => requests.filter((request) => request === "GET /api/order?status=pending").length;

describe("the checkout page's calls", () => {
  it("takes a line back to the cart, says so and reads the pending lines again", async () => {
    pending = [product(7, "Webcam", [pendingLine(1, 1)]), product(8, "Mouse", [pendingLine(2, 1)])];
    renderAt("/purchase");
    fireEvent.click(await screen.findByRole("button", { name: "Back to cart: Webcam" }));
    expect(await screen.findByText("Back in your cart")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("link", { name: "Webcam" })).toBeNull());
    expect(requests).toContain("PUT /api/order/1");
    expect(readsOfPending()).toBe(2);
    expect(screen.getByRole("button", { name: "Back to cart: Mouse" })).toHaveProperty("disabled", false);
  });

  it("cuts a short line down to what is left: the new line joins this purchase, with a toast", async () => {
    pending = [product(7, "Webcam", [pendingLine(1, 3)])];
    payReply = () => json(409, { error: "Only 1 left", productId: 7, stock: 1 });
    renderAt("/purchase?orders=1");
    const pay = await screen.findByRole("button", { name: "Pay $30.00" });
    await waitFor(() => expect(pay).toHaveProperty("disabled", false));
    fireEvent.click(pay);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Only 1 unit of Webcam is left");
    // A shortage is the screen's to fix: the lines are not read again yet.
    expect(readsOfPending()).toBe(1);

    fireEvent.click(within(alert).getByRole("button", { name: "Buy 1 unit instead" }));
    expect(await screen.findByText("Now 1 unit of Webcam: you can pay")).toBeTruthy();
    await screen.findByRole("button", { name: "Pay $10.00" });
    expect(requests).toEqual(expect.arrayContaining(["DELETE /api/order/1", "POST /api/order"]));
    expect(screen.getByTestId("address").textContent).toBe("?orders=1%2C99");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("any other failure at Pay is said, and the pending lines are read again", async () => {
    pending = [product(7, "Webcam", [pendingLine(1, 1)])];
    payReply = () => {
      throw new TypeError("Failed to fetch");
    };
    renderAt("/purchase");
    const pay = await screen.findByRole("button", { name: "Pay $10.00" });
    await waitFor(() => expect(pay).toHaveProperty("disabled", false));
    fireEvent.click(pay);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The payment could not be started. Try again.",
    );
    await waitFor(() => expect(readsOfPending()).toBe(2));
    expect(pay).toHaveProperty("disabled", false);
  });
});

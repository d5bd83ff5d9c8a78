import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, useLocation } from "react-router";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { User } from "@voltio/domain/account";
import { ToastHost } from "./ui/ToastHost";
import { PURCHASE_REDIRECT_MS } from "./timings";
import type { BuyTarget } from "@/api/orders";
import { fakeSignedInApi, jsonReply as json } from "@/test/fake-api";
import { useBuyFlow } from "./use-buy-flow";

const shopper = {
  id: 5,
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  rol: "user",
  profilePicture: "",
  googleUser: false,
  newsletterSubscription: false,
  directions: [{ id: 3, city: "Lisbon" }],
} as unknown as User;

let requests: string[];
let addReply: () => Response;

beforeEach(() => {
  requests = fakeSignedInApi((url, init) => {
    if (url === "/api/order" && init.method === "POST") return addReply();
    if (url === "/api/order/bulk" && init.method === "POST") return json(201, { id: 4 });
    return json(200, []);
  });
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

function Buyer({ target }: { target: BuyTarget }) {
  const flow = useBuyFlow();
  const location = useLocation();
  return (
    <>
      <button type="button" onClick={() => flow.buy(target)} disabled={flow.busy}>
        Buy
      </button>
      <output data-testid="address">{`${location.pathname}${location.search}`}</output>
    </>
  );
}

function renderBuyer(target: BuyTarget) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(["user", "me"], shopper);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={["/product/7"]}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
  render(
    <>
      <Buyer target={target} />
      <ToastHost />
    </>,
    { wrapper },
  );
  return client;
}

describe("the buy flow's call", () => {
  it("Buy now makes a pending line, says so, and opens the checkout for that line a second later", async () => {
    addReply = () => json(201, { id: 12 });
    const client = renderBuyer({ productId: 7 });
    const invalidated = vi.spyOn(client, "invalidateQueries");
    fireEvent.click(screen.getByRole("button", { name: "Buy" }));
    expect(await screen.findByText("Your purchase is waiting for payment")).toBeTruthy();
    expect(requests).toContain("POST /api/order");
    await waitFor(() => expect(invalidated).toHaveBeenCalledWith({ queryKey: ["user", "orders"] }));
    expect(screen.getByRole("button", { name: "Buy" })).toHaveProperty("disabled", true);
    await waitFor(() => expect(screen.getByTestId("address").textContent).toBe("/purchase?orders=12"), {
      timeout: PURCHASE_REDIRECT_MS * 5,
    });
  });

  it("a refusal is toasted in the server's words, the button comes back and the lists are read again", async () => {
    addReply = () => json(409, { error: "Only 0 left" });
    const client = renderBuyer({ productId: 7 });
    const invalidated = vi.spyOn(client, "invalidateQueries");
    fireEvent.click(screen.getByRole("button", { name: "Buy" }));
    expect(await screen.findByText("Only 0 left")).toBeTruthy();
    await waitFor(() => expect(invalidated).toHaveBeenCalledWith({ queryKey: ["user", "orders"] }));
    expect(screen.getByRole("button", { name: "Buy" })).toHaveProperty("disabled", false);
    await act(() => new Promise((resolve) => setTimeout(resolve, PURCHASE_REDIRECT_MS + 200)));
    expect(screen.getByTestId("address").textContent).toBe("/product/7");
  });
});

import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import { cleanup, render, screen } from "@testing-library/react";
import type { FeedbackReply } from "@voltio/domain/payments";
import { PaymentResultPage } from "./PaymentResultPage";
import { loadTexts } from "@/i18n";
import { jsonReply as json } from "@/test/fake-api";

// The router loads the page with its texts (app/router.tsx); rendered alone, the test loads them.
beforeAll(() => loadTexts("shopping"));

/**
 * The result page says what became of the payment, by the outcome the server verified with the
 * provider. A declined card is never 'Your payment is pending'.
 */

let feedback: () => Response;

beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      if (url === "/api/store") return json(200, { today: "mon", paymentProvider: "sandbox" });
      if (url.startsWith("/api/sandbox/feedback")) return feedback();
      return json(404, { error: "Not Found" });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
  return render(<PaymentResultPage />, { wrapper });
}

const replying = (reply: FeedbackReply) => {
  feedback = () => json(200, reply);
};

const heading = () => screen.findByRole("heading", { level: 1 });
const linkTo = (name: string) => screen.getByRole("link", { name }).getAttribute("href");

describe("the payment result page: each outcome's heading", () => {
  it("approved: 'Purchase successful' (docs/product-rules.md §1) with the order's number, and the purchases link", async () => {
    replying({
      Status: "approved",
      Payment: "sbx_pay_1",
      order: {
        number: "V-000123",
        items: [{ title: "Webcam", amount: 1, unitPrice: 27.99, discountPercentage: null }],
        products: 27.99,
        shipping: 11.5,
        total: 39.49,
        address: {
          city: "Lisbon",
          street: "Rua Augusta",
          streetNumber: 100,
          floor: null,
          unit: null,
          postalCode: "1100-053",
        },
      },
    });
    renderAt("/purchase/success?payment_id=sbx_pay_1");
    expect((await heading()).textContent).toBe("Purchase successful");
    expect(screen.getByText("Order number")).toBeTruthy();
    expect(screen.getByText("V-000123")).toBeTruthy();
    expect(linkTo("See your purchases")).toBe("/purchases");
  });

  it("rejected: 'Payment declined' with the provider's reason and 'Try again' back to /purchase", async () => {
    replying({ Status: "rejected", Payment: "sbx_pay_2", reason: "Your card was declined." });
    renderAt("/purchase/failure?payment_id=sbx_pay_2");
    expect((await heading()).textContent).toBe("Payment declined");
    expect(screen.getByText("Reason given: Your card was declined.")).toBeTruthy();
    expect(linkTo("Try again")).toBe("/purchase");
    expect(screen.queryByText("Your payment is pending")).toBeNull();
  });

  it("rejected without a reason: still 'Payment declined'", async () => {
    replying({ Status: "rejected", Payment: "sbx_pay_3" });
    renderAt("/purchase/failure?payment_id=sbx_pay_3");
    expect((await heading()).textContent).toBe("Payment declined");
    expect(screen.queryByText(/^Reason given/)).toBeNull();
  });

  it("pending: the SPEC's pending text", async () => {
    replying({ Status: "pending", Payment: "sbx_pay_4" });
    renderAt("/purchase/failure?payment_id=sbx_pay_4");
    expect((await heading()).textContent).toBe("Your payment is pending");
    expect(screen.getByText("We'll finish your purchase as soon as the payment is approved.")).toBeTruthy();
  });

  it("refund_needed: being refunded, why in plain words, and the purchases link", async () => {
    replying({ Status: "refund_needed", Payment: "sbx_pay_5" });
    renderAt("/purchase/success?payment_id=sbx_pay_5");
    expect((await heading()).textContent).toBe("Your payment is being refunded");
    expect(screen.getByText(/couldn't deliver this purchase/)).toBeTruthy();
    expect(screen.getByText(/going back to your card automatically/)).toBeTruthy();
    expect(linkTo("See your purchases")).toBe("/purchases");
    expect(screen.queryByRole("link", { name: "Back to checkout" })).toBeNull();
  });

  it("amount_mismatch: being refunded, and the purchase can be paid again", async () => {
    replying({ Status: "amount_mismatch", Payment: "sbx_pay_6" });
    renderAt("/purchase/success?payment_id=sbx_pay_6");
    expect((await heading()).textContent).toBe("Your payment is being refunded");
    expect(screen.getByText(/amount or currency you paid didn't match/)).toBeTruthy();
    expect(linkTo("See your purchases")).toBe("/purchases");
    expect(linkTo("Back to checkout")).toBe("/purchase");
  });

  it("no payment in the address, or one the server doesn't know: not completed, never 'pending'", async () => {
    renderAt("/purchase/failure");
    expect((await heading()).textContent).toBe("Payment not completed");
    expect(screen.getByText("The payment was not completed: nothing was charged.")).toBeTruthy();
    cleanup();
    feedback = () => json(404, { error: "Payment Not Found" });
    renderAt("/purchase/failure?payment_id=nope");
    expect((await heading()).textContent).toBe("Payment not completed");
    expect(screen.getByText("We couldn't find this payment.")).toBeTruthy();
  });

  it("the server couldn't be asked: says so and offers to check again", async () => {
    feedback = () => json(502, { error: "The payment provider is not answering" });
    renderAt("/purchase/success?payment_id=sbx_pay_7");
    expect((await heading()).textContent).toBe("Payment not completed");
    expect(screen.getByText("We couldn't check your payment right now.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});

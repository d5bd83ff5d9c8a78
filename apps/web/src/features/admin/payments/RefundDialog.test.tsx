import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { useState } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { AdminPayment, RefundReply } from "@voltio/domain/payments";
import { loadTexts, translate } from "@/i18n";
import { RefundDialog } from "./RefundDialog";
import { checkRefund, typedAmount } from "./refund-form";
import { jsonReply as json } from "@/test/fake-api";

// The back office's texts, as the admin area loads them before its first render (app/router.tsx).
beforeAll(() => loadTexts("admin"));

/**
 * The back office's refund — the amount prefilled with what is left and editable for a partial
 * refund, a required reason, a confirmation step; what the server refuses shows on its field.
 */
const payment: AdminPayment = {
  id: 41,
  provider: "sandbox",
  providerPaymentId: "sbx_pay_41",
  status: "approved",
  amount: 45,
  refunded: 13.5,
  currency: "usd",
  disputed: false,
  userId: 7,
  orderNumbers: ["V-000123"],
  attention: false,
  createdAt: "2026-05-04T10:00:00.000Z",
};

let answer: () => Response;
const sent: { url: string; body: unknown }[] = [];

beforeEach(() => {
  sent.length = 0;
  answer = () => json(200, { msg: "Refund requested", id: 41, refunding: 31.5, cancelled: true });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      sent.push({ url, body: JSON.parse(String(init.body)) });
      return answer();
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Page({ onRefunded }: { onRefunded: (reply: RefundReply) => void }) {
  const [open, setOpen] = useState<AdminPayment | null>(null);
  return (
    <>
      <button type="button" onClick={() => setOpen(payment)}>
        Refund payment V-000123
      </button>
      <RefundDialog
        payment={open}
        onClose={() => setOpen(null)}
        onRefunded={(reply) => {
          setOpen(null);
          onRefunded(reply);
        }}
      />
    </>
  );
}

function open() {
  const refunded = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Page onRefunded={refunded} />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole("button", { name: "Refund payment V-000123" }));
  return {
    refunded,
    dialog: screen.getByRole("dialog", { name: "Refund payment V-000123" }),
    amount: screen.getByLabelText("Amount to refund (US$)") as HTMLInputElement,
    reason: screen.getByLabelText("Reason") as HTMLInputElement,
  };
}

const type = (input: HTMLInputElement, value: string) => fireEvent.change(input, { target: { value } });
const review = () => fireEvent.click(screen.getByRole("button", { name: "Review refund" }));
const errorOf = (input: HTMLInputElement) =>
  (input.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id)?.textContent)
    .filter(Boolean);

describe("the refund dialog", () => {
  it("opens with what is left, typed as the admin types it, and says what the payment holds", () => {
    const { amount, dialog } = open();
    expect(amount.value).toBe("31.50");
    expect(dialog.textContent).toContain("Paid US$ 45.00 · refunded US$ 13.50 · left US$ 31.50");
    type(amount, "31.5");
    expect(amount.value).toBe("31.5");
    type(amount, "1o.5$");
    expect(amount.value).toBe("1.5");
    type(amount, "12,3");
    expect(amount.value).toBe("12,3");
  });

  it("a missing reason and an amount above what is left are shown on their fields, and nothing is sent", () => {
    const { amount, reason } = open();
    type(amount, "50");
    review();
    expect(reason.getAttribute("aria-invalid")).toBe("true");
    expect(errorOf(reason)).toContain("Reason is required");
    expect(amount.getAttribute("aria-invalid")).toBe("true");
    expect(errorOf(amount)).toContain("At most US$ 31.50, what is left of the payment");
    expect(sent).toHaveLength(0);
    // Typing in a box clears its rule.
    type(reason, "Damaged on arrival");
    expect(reason.getAttribute("aria-invalid")).toBeNull();
  });

  it("a partial refund goes through a confirmation that can step back, then is sent as typed", async () => {
    const { amount, reason, refunded } = open();
    type(amount, "10.5");
    type(reason, "  One item  returned ");
    review();
    expect(screen.getByText("Refund US$ 10.50?")).toBeTruthy();
    expect(screen.getByText("A partial refund: US$ 21.00 of the payment stays.")).toBeTruthy();
    expect(screen.getByText("Reason: One item returned")).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.textContent).toBe("Refund US$ 10.50?"));
    expect(sent).toHaveLength(0);

    // Back: the form again, as it was typed.
    fireEvent.click(screen.getByRole("button", { name: "Back" }));
    expect((screen.getByLabelText("Amount to refund (US$)") as HTMLInputElement).value).toBe("10.5");
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText("Amount to refund (US$)")));
    review();

    answer = () => json(200, { msg: "Refund requested", id: 41, refunding: 10.5, cancelled: false });
    fireEvent.click(screen.getByRole("button", { name: "Refund US$ 10.50" }));
    await waitFor(() => expect(refunded).toHaveBeenCalledOnce());
    expect(sent).toEqual([
      { url: "/api/payment/admin/41/refund", body: { amount: 10.5, reason: "One item returned" } },
    ]);
    expect(refunded.mock.calls[0]![0]).toMatchObject({ refunding: 10.5 });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("a full refund says it cancels the purchase", () => {
    const { reason } = open();
    type(reason, "Out of stock");
    review();
    expect(screen.getByText("Refund US$ 31.50?")).toBeTruthy();
    expect(screen.getByText(/It is all that is left: a paid purchase is cancelled/)).toBeTruthy();
  });

  it("the server's refusal of a field shows on that field, back in the form", async () => {
    answer = () =>
      json(400, {
        error: "amount: must be at most 20.00, what is left of the payment",
        details: [{ field: "amount", reason: "must be at most 20.00, what is left of the payment" }],
      });
    const { reason } = open();
    type(reason, "Customer asked");
    review();
    fireEvent.click(screen.getByRole("button", { name: "Refund US$ 31.50" }));
    const amount = await screen.findByLabelText("Amount to refund (US$)");
    expect(amount.getAttribute("aria-invalid")).toBe("true");
    expect(errorOf(amount as HTMLInputElement)).toContain(
      "must be at most 20.00, what is left of the payment",
    );
    expect(screen.getByRole("dialog")).toBeTruthy();
  });

  it("a refusal that names no field (nothing left: 409) is shown above the form", async () => {
    answer = () => json(409, { error: "This payment has been refunded in full already" });
    const { reason } = open();
    type(reason, "Customer asked");
    review();
    fireEvent.click(screen.getByRole("button", { name: "Refund US$ 31.50" }));
    expect((await screen.findByRole("alert")).textContent).toContain(
      "This payment has been refunded in full already",
    );
    expect(screen.getByLabelText("Amount to refund (US$)")).toBeTruthy();
  });
});

describe("the refund form's rules", () => {
  const t = (key: string, values?: Record<string, string | number>) => translate("en", key, values);

  it("reads amounts with a point or a comma, at most 2 decimals, more than 0, at most what is left", () => {
    const check = (amount: string) => checkRefund({ amount, reason: "r" }, 3150, t);
    expect(check("31.50").body).toEqual({ amount: 31.5, reason: "r" });
    expect(check("0,5").body).toEqual({ amount: 0.5, reason: "r" });
    expect(check("7.").body).toEqual({ amount: 7, reason: "r" });
    expect(check("").errors.amount).toBe("Type the amount to refund");
    expect(check("1.2.3").errors.amount).toBe("Type an amount such as 31.50");
    expect(check("1.234").errors.amount).toBe("At most 2 decimals");
    expect(check("0.00").errors.amount).toBe("Must be more than 0");
    expect(check("31.51").errors.amount).toBe("At most US$ 31.50, what is left of the payment");
    expect(checkRefund({ amount: "1", reason: "   " }, 3150, t).errors.reason).toBe("Reason is required");
  });

  it("keeps only digits and one separator as the admin types", () => {
    expect(typedAmount("US$ 1,234.56")).toBe("1,23456");
    expect(typedAmount("12.5.0")).toBe("12.50");
    expect(typedAmount("abc")).toBe("");
  });
});

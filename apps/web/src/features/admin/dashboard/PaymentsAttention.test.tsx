import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import { cleanup, render, screen } from "@testing-library/react";
import { usePaymentsNeedingAttention } from "../payments/api";
import { PaymentsAttention } from "./PaymentsAttention";
import { loadTexts } from "@/i18n";

// The back office's texts, as the admin area loads them before its first render (app/router.tsx).
beforeAll(() => loadTexts("admin"));

/** The dashboard says how many payments need attention, and leads to them; nothing when none. */
const asked: string[] = [];

function renderWithTotal(total: number) {
  asked.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify({ page: 1, totalPages: total, total, payments: [] }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }),
  );
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter>{children}</MemoryRouter>
    </QueryClientProvider>
  );
  return render(
    <>
      <PaymentsAttention />
      <CountLoaded />
    </>,
    { wrapper },
  );
}

/** Marks (with no text) the moment the same count reached the page: React renders both in one pass. */
function CountLoaded() {
  return usePaymentsNeedingAttention().isSuccess ? <span data-testid="count-loaded" /> : null;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the dashboard's payments needing attention", () => {
  it("counts them from a one-row page of them and links to the filtered Payments screen", async () => {
    renderWithTotal(3);
    const link = await screen.findByRole("link", { name: "3 payments need attention" });
    expect(link.getAttribute("href")).toBe("/admin/payments?attention=true");
    expect(asked).toEqual(["/api/payment/admin?attention=true&limit=1"]);
  });

  it("words one in the singular", async () => {
    renderWithTotal(1);
    expect(await screen.findByRole("link", { name: "1 payment needs attention" })).toBeTruthy();
  });

  it("shows nothing when none does", async () => {
    const { container } = renderWithTotal(0);
    // Once the count of 0 is in: what the component shows then is all it will show.
    await screen.findByTestId("count-loaded");
    expect(asked).toHaveLength(1);
    expect(container.textContent).toBe("");
  });
});

import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MemoryRouter } from "react-router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { AdminOrder } from "@voltio/domain/admin-orders";
import { loadTexts } from "@/i18n";
import { OrdersTable } from "./OrdersTable";

// The back office's texts, as the admin area loads them before its first render (app/router.tsx).
beforeAll(() => loadTexts("admin"));
afterEach(cleanup);

/**
 * The status selector offers every status the back office knows, and greys out those the server's table of
 * moves would refuse from the order's status: the admin sees why a choice isn't there to make.
 */
const order = (id: number, status: AdminOrder["status"], extra: Partial<AdminOrder> = {}): AdminOrder => ({
  id,
  kind: "order",
  userId: 7,
  user: { id: 7, firstName: "Ana", lastName: "Paz", email: "ana@example.com" },
  status,
  number: `V-${String(id).padStart(6, "0")}`,
  flag: null,
  serverPurchaseDate: "2026-05-04T10:00:00.000Z",
  localPurchaseDate: "2026-05-04",
  updatedAt: "2026-05-04T10:00:00.000Z",
  price: 45,
  shippingCost: 0,
  purchaseId: "sbx_pay_1",
  shippingAddress: null,
  title: "Lamp",
  products: [],
  ...extra,
});

// Each row's details link to the customer's page and download its receipt: a router and a query client.
const show = (orders: AdminOrder[], onStatus = vi.fn()) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <OrdersTable
          orders={orders}
          open={new Set()}
          onToggle={() => {}}
          sending={null}
          onStatus={onStatus}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );

function enabledChoices(orders: AdminOrder[], id: number) {
  show(orders);
  const select = screen.getByRole("combobox", { name: `Status of Order #${id}` });
  return within(select)
    .getAllByRole("option")
    .filter((option) => !(option as HTMLOptionElement).disabled)
    .map((option) => option.textContent);
}

describe("the orders table's status selector", () => {
  it("lets a paid order go to any status", () => {
    expect(enabledChoices([order(1, "preparing")], 1)).toEqual([
      "Delivered",
      "Finished",
      "Preparing",
      "On delivery",
      "Cancelled",
    ]);
  });

  it("lets a pending order only be cancelled, its own status shown greyed out", () => {
    const pending = order(2, "pending", { number: null, serverPurchaseDate: null });
    expect(enabledChoices([pending], 2)).toEqual(["Cancelled"]);
    const options = within(screen.getByRole("combobox")).getAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual([
      "Pending",
      "Delivered",
      "Finished",
      "Preparing",
      "On delivery",
      "Cancelled",
    ]);
  });

  it("keeps a cancelled order whose payment went back from being reopened", () => {
    expect(enabledChoices([order(3, "cancelled", { flag: "refunded" })], 3)).toEqual(["Cancelled"]);
    cleanup();
    expect(enabledChoices([order(4, "cancelled", { flag: "amount_mismatch" })], 4)).toHaveLength(5);
  });

  it("sends what the admin picks", () => {
    const onStatus = vi.fn();
    const paid = order(5, "finished");
    show([paid], onStatus);
    fireEvent.change(screen.getByRole("combobox", { name: "Status of Order #5" }), {
      target: { value: "onDelivery" },
    });
    expect(onStatus).toHaveBeenCalledWith(paid, "onDelivery");
  });
});

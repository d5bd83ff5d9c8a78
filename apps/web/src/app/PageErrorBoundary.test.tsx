import { afterEach, describe, expect, it, vi } from "vitest";
import { lazy, Suspense } from "react";
import { act, cleanup, render, screen } from "@testing-library/react";
import { PageErrorBoundary } from "./PageErrorBoundary";

afterEach(cleanup);

/** A page whose chunk can't be fetched, as the browser reports it (a rejected dynamic import). */
const Unreachable = lazy(() => Promise.reject(new TypeError("Failed to fetch dynamically imported module")));

function Shell({ path, page }: { path: string; page: React.ReactNode }) {
  return (
    <PageErrorBoundary resetKey={path}>
      <Suspense fallback={null}>{page}</Suspense>
    </PageErrorBoundary>
  );
}

describe("PageErrorBoundary", () => {
  it("says the page couldn't be loaded, with a reload button, when its chunk fails; another page draws again", async () => {
    // React reports the caught error on the console; the test is about what the shopper sees.
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const view = render(<Shell path="/cart" page={<Unreachable />} />);
    expect(
      await screen.findByRole("heading", { level: 1, name: "This page couldn't be loaded" }),
    ).toBeTruthy();
    expect(screen.getByRole("button", { name: "Reload the page" })).toBeTruthy();

    // The same path stays on the message; a new path renders its page.
    view.rerender(<Shell path="/cart" page={<p>Cart</p>} />);
    expect(screen.queryByText("Cart")).toBeNull();
    await act(async () => view.rerender(<Shell path="/wishlist" page={<p>Wishlist</p>} />));
    expect(screen.getByText("Wishlist")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Reload the page" })).toBeNull();
    consoleError.mockRestore();
  });
});

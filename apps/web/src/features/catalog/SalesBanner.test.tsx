import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { Sale } from "@voltio/domain/catalog";
import { BANNER_INTERVAL_MS } from "@/components/timings";
import { SalesBanner, bannerSlides, saleTarget } from "./SalesBanner";

const sale = (id: number, extra: Partial<Sale> = {}): Sale => ({
  id,
  description: `Sale number ${id}`,
  percentage: 10 * id,
  day: "all",
  productAmount: 0,
  image: `/illustrations/category/mouse.svg`,
  categories: [],
  products: [],
  ...extra,
});

const SALES = [1, 2, 3, 4, 5].map((id) => sale(id));

function activeSlide(container: HTMLElement) {
  return container.querySelector('[data-active="true"] h2')?.textContent;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("bannerSlides (the banner opens on a sale that runs today)", () => {
  const week = [sale(1, { day: "fri" }), sale(2, { day: "tue" }), sale(3, { day: "wed" }), sale(4), sale(5)];

  it("starts at the first sale that runs today, keeping the order around, 4 slides", () => {
    expect(bannerSlides(week, "wed").map((s) => s.id)).toEqual([3, 4, 5, 1]);
    expect(bannerSlides(week, "tue").map((s) => s.id)).toEqual([2, 3, 4, 5]);
  });

  it("keeps the order when the first sale runs today, or none does, or the day isn't known yet", () => {
    expect(bannerSlides(week, "fri").map((s) => s.id)).toEqual([1, 2, 3, 4]);
    expect(bannerSlides(week.slice(0, 3), "sun").map((s) => s.id)).toEqual([1, 2, 3]);
    expect(bannerSlides(week, undefined).map((s) => s.id)).toEqual([1, 2, 3, 4]);
  });
});

describe("sales banner (docs/product-rules.md §1, §8, §12)", () => {
  function renderBanner() {
    return render(
      <MemoryRouter>
        <SalesBanner sales={SALES} today="mon" />
      </MemoryRouter>,
    );
  }

  it("shows 4 slides and advances every 5 seconds, back to the first after the last", () => {
    const { container } = renderBanner();
    expect(container.querySelectorAll('[aria-roledescription="slide"]')).toHaveLength(4);
    expect(activeSlide(container)).toBe("Sale number 1");
    act(() => vi.advanceTimersByTime(BANNER_INTERVAL_MS - 1));
    expect(activeSlide(container)).toBe("Sale number 1");
    act(() => vi.advanceTimersByTime(1));
    expect(activeSlide(container)).toBe("Sale number 2");
    act(() => vi.advanceTimersByTime(BANNER_INTERVAL_MS));
    act(() => vi.advanceTimersByTime(BANNER_INTERVAL_MS));
    expect(activeSlide(container)).toBe("Sale number 4");
    act(() => vi.advanceTimersByTime(BANNER_INTERVAL_MS));
    expect(activeSlide(container)).toBe("Sale number 1");
  });

  it("pauses while the pointer is over it", () => {
    const { container } = renderBanner();
    const banner = screen.getByRole("region", { name: "Current sales" });
    fireEvent.mouseEnter(banner);
    act(() => vi.advanceTimersByTime(BANNER_INTERVAL_MS * 3));
    expect(activeSlide(container)).toBe("Sale number 1");
    fireEvent.mouseLeave(banner);
    act(() => vi.advanceTimersByTime(BANNER_INTERVAL_MS));
    expect(activeSlide(container)).toBe("Sale number 2");
  });

  it("previous and next wrap around at both ends", () => {
    const { container } = renderBanner();
    fireEvent.click(screen.getByRole("button", { name: "Previous sale" }));
    expect(activeSlide(container)).toBe("Sale number 4");
    fireEvent.click(screen.getByRole("button", { name: "Next sale" }));
    expect(activeSlide(container)).toBe("Sale number 1");
  });

  it("the pause button stops the rotation", () => {
    const { container } = renderBanner();
    fireEvent.click(screen.getByRole("button", { name: "Pause the sales banner" }));
    // The click leaves the focus in the banner; move it out to show the button alone keeps it paused.
    fireEvent.blur(screen.getByRole("button", { name: "Play the sales banner" }));
    act(() => vi.advanceTimersByTime(BANNER_INTERVAL_MS * 2));
    expect(activeSlide(container)).toBe("Sale number 1");
  });

  it("each slide leads to its product, its category or the whole catalogue", () => {
    expect(saleTarget(sale(1, { products: [{ id: 15, title: "Keyboard" }] }))).toBe("/product/15");
    expect(saleTarget(sale(1, { categories: [{ id: 6, name: "Mouse" }] }))).toBe(
      "/products?categoryId=6&offset=1",
    );
    expect(saleTarget(sale(1))).toBe("/products?offset=1");
  });
});

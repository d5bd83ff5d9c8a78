import { expect, scrollToTheEnd, test, type Page } from "./fixtures";

/** Every storefront page fits the narrowest supported screen without sideways scrolling (point 8). */

/** Each page with its widest part, which some pages show only after a SPEC delay. */
const PAGES: { path: string; widest: (page: Page) => ReturnType<Page["locator"]> }[] = [
  // The category carousels, after the 2 s skeleton.
  { path: "/", widest: (page) => page.locator("main section[data-per-view]").first() },
  // The grid, after its 1.5 s delay.
  {
    path: "/products?offset=1",
    widest: (page) => page.getByRole("region", { name: "Products" }).getByRole("article").first(),
  },
  {
    path: "/product/11",
    widest: (page) => page.getByRole("region", { name: "Related products" }).getByRole("article").first(),
  },
  { path: "/profiles", widest: (page) => page.getByRole("main").getByRole("listitem").first() },
  { path: "/no/such/page", widest: (page) => page.getByRole("heading", { name: "Page not found" }) },
];

for (const width of [360, 768, 1440]) {
  for (const { path, widest } of PAGES) {
    test(`${path} fits ${width} px without sideways scrolling`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.clock.install();
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeAttached();
      await expect(page.getByRole("contentinfo")).toBeVisible();
      // The delays start once the page has its categories (in the HTML): move the clock past them.
      await page.clock.runFor(2500);
      await scrollToTheEnd(page);
      await expect(widest(page)).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
}

import { expect, test } from "./fixtures";

/** Every storefront page fits the narrowest supported screen without sideways scrolling (issue 3, point 8). */

const PAGES = ["/", "/products?offset=1", "/product/11", "/profiles", "/no/such/page"];

for (const width of [360, 768, 1440]) {
  for (const path of PAGES) {
    test(`${path} fits ${width} px without sideways scrolling`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeAttached();
      await expect(page.getByRole("contentinfo")).toBeVisible();
      // Wait for the delayed grids and carousels, which are the widest parts.
      await page.waitForTimeout(2200);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
}

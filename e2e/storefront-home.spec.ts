import { expect, test, type Page } from "./fixtures";

/**
 * Journeys of the home page (docs/product-rules.md §1 Home, §9, §12): banner, category carousels, skeletons only while
 * loading (ADR 0017), the footer's dialogs. The footer's links as the server renders them:
 * apps/server/src/modules/web/storefront-html.test.ts.
 */

const T0 = new Date("2026-03-02T10:00:00Z");

/** Fake timers from the first script on, paused: time moves only when a test says so. */
async function pausedClock(page: Page) {
  await page.clock.install({ time: T0 });
  await page.clock.pauseAt(new Date(T0.getTime() + 1000));
}

const banner = (page: Page) => page.getByRole("region", { name: "Current sales" });
const activeSlide = (page: Page) => banner(page).locator('[data-active="true"]').getByRole("heading");

test("the sales banner shows 4 slides, advances every 5 seconds and wraps around", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/");
  await expect(banner(page).locator('[aria-roledescription="slide"]')).toHaveCount(4);
  const first = (await activeSlide(page).textContent())!;
  await page.clock.runFor(4900);
  await expect(activeSlide(page)).toHaveText(first);
  await page.clock.runFor(200);
  await expect(activeSlide(page)).not.toHaveText(first);
  const second = (await activeSlide(page).textContent())!;
  await page.clock.runFor(5000 * 3);
  // Four slides in a loop: three more steps bring the first one back.
  await expect(activeSlide(page)).toHaveText(first);
  await page.getByRole("button", { name: "Next sale" }).click();
  await expect(activeSlide(page)).toHaveText(second);
});

test("the banner pauses while the pointer is over it", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/");
  const first = (await activeSlide(page).textContent())!;
  await banner(page).hover();
  await page.clock.runFor(20_000);
  await expect(activeSlide(page)).toHaveText(first);
  await page.mouse.move(5, 5);
  await page.clock.runFor(5000);
  await expect(activeSlide(page)).not.toHaveText(first);
});

test("the banner's arrows wrap at both ends and each slide leads to its sale", async ({ page }) => {
  await page.goto("/");
  await banner(page).hover();
  const first = (await activeSlide(page).textContent())!;
  await page.getByRole("button", { name: "Previous sale" }).click();
  await expect(banner(page).getByRole("button", { name: "Show sale 4" })).toHaveAttribute(
    "aria-current",
    "true",
  );
  await page.getByRole("button", { name: "Next sale" }).click();
  await expect(activeSlide(page)).toHaveText(first);
  // The banner opens on a sale that runs today: the Friday one on Fridays, else the every-day mouse sale.
  const { today } = await (await page.request.get("/api/store")).json();
  const mouseSale = "Buy two mouses, get the third one free!";
  expect(first).toBe(today === "fri" ? "Everything is 10% off on Fridays!" : mouseSale);
  await page.getByRole("button", { name: `Show sale ${today === "fri" ? 2 : 1}` }).click();
  await expect(activeSlide(page)).toHaveText(mouseSale);
  await expect(banner(page).locator('[data-active="true"]')).toContainText("100% OFF");
  await banner(page).locator('[data-active="true"]').getByRole("link", { name: "Shop now" }).click();
  await expect(page).toHaveURL(/\/products\?categoryId=6&offset=1$/);
});

test("skeletons show only while the carousels' products load, then three distinct category carousels", async ({
  page,
}) => {
  // The draw's lists are held: the skeletons stand in while they are on their way, and no longer (ADR 0017).
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/products\?categoryId=/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto("/");
  await expect(page.getByTestId("carousel-skeleton")).toHaveCount(3);
  await expect(page.getByRole("status", { name: "Loading…" })).toHaveAttribute("aria-busy", "true");
  release();
  await expect(page.getByTestId("carousel-skeleton")).toHaveCount(0);

  await expect(page.locator("main section[data-per-view]")).toHaveCount(3);
  const names = await page.locator("main h2[id^='carousel-']").allTextContents();
  expect(new Set(names).size).toBe(3);
  // SPEC §5: only categories with more than 4 products; the demo's 'Laser Printers' has 3.
  expect(names).not.toContain("Laser Printers");
  for (const name of names) {
    const link = page.getByRole("link", { name: new RegExp(`^See all\\W+${name}$`) });
    const href = (await link.getAttribute("href"))!;
    const id = Number(new URL(href, "http://x").searchParams.get("categoryId"));
    expect(id).toBeGreaterThanOrEqual(1);
    expect(id).toBeLessThanOrEqual(16);
    const total = await page.request
      .get(`/api/products?categoryId=${id}&limit=1`)
      .then(async (reply) => (await reply.json()).total as number);
    expect(total).toBeGreaterThan(4);
  }
});

for (const [width, perView] of [
  [1280, 4],
  [1000, 3],
  [560, 2],
  [400, 1],
] as const) {
  test(`home carousels show ${perView} cards per view at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    const carousel = page.locator("section[aria-roledescription='carousel'][data-per-view]").first();
    await expect(carousel).toHaveAttribute("data-per-view", String(perView));
    await expect(carousel.locator('li[data-visible="true"]')).toHaveCount(perView);
    await carousel.scrollIntoViewIfNeeded();
    for (const card of await carousel.locator('li[data-visible="true"]').all())
      await expect(card).toBeInViewport();
    // The next page waits off screen.
    await expect(carousel.locator('li[data-visible="false"]').first()).not.toBeInViewport();
  });
}

test("guests opening Profile or Purchases from the footer are asked to log in", async ({ page }) => {
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  await footer.getByRole("link", { name: "Profile", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "You must be logged in to see your profile." });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await footer.getByRole("link", { name: "Purchases", exact: true }).click();
  const purchases = page.getByRole("dialog", { name: "You must be logged in to see your purchases." });
  await purchases.getByRole("link", { name: "Log in/Sign up" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

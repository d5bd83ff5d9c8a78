import { axeViolations } from "./axe";
import { ADMIN, expect, scrollToTheEnd, signIn, switchTheme, test, type Page } from "./fixtures";

/**
 * On a phone: the signed-in header fits in 120 px, discount badges stay off the
 * product's picture, the header's tab order reaches Categories and Search first, Spanish pages say so in
 * <html lang>, and the sale texts read at AA contrast in both themes.
 */

/** The demo shopper, as README.md prints it. */
const SHOPPER = { email: "shopper@voltio.test", password: "Shopper1234!" };
const PHONE = { width: 390, height: 844 };

/** The visitor's language before the first page, as the language switch leaves it (cookie and storage). */
async function speak(page: Page, baseURL: string | undefined, language: "en" | "es") {
  await page.context().addCookies([{ name: "lang", value: language, url: baseURL! }]);
  await page.addInitScript((value) => localStorage.setItem("lang", value), language);
}

for (const [who, credentials] of [
  ["the demo shopper", SHOPPER],
  ["the admin", ADMIN],
] as const) {
  for (const language of ["en", "es"] as const) {
    test(`signed in as ${who} (${language}), the header at 390 px is at most 120 px tall`, async ({
      page,
      baseURL,
    }) => {
      await page.setViewportSize(PHONE);
      await speak(page, baseURL, language);
      await signIn(page, credentials);
      await page.goto("/");
      const header = page.getByRole("banner");
      // The signed-in controls are drawn once the session is read from storage, after hydration.
      await expect(header.getByRole("button", { name: /^Account menu|^Menú de la cuenta/ })).toBeVisible();
      const box = (await header.boundingBox())!;
      expect(box.height).toBeLessThanOrEqual(120);
      // Nothing left out to the side either.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
    });
  }
}

test("at 320 px the signed-in header still holds every control on its rows", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  await signIn(page, SHOPPER);
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("button", { name: /Account menu/ })).toBeVisible();
  expect((await header.boundingBox())!.height).toBeLessThanOrEqual(120);
  // The store's name stays the logo link's name when only the mark shows.
  await expect(header.getByRole("link", { name: "Voltio" })).toBeVisible();
  for (const control of [
    header.getByRole("link", { name: /^Wishlist/ }),
    header.getByRole("link", { name: /^Shopping cart/ }),
    header.getByRole("link", { name: "Purchases" }),
    header.getByRole("button", { name: "Switch to dark mode" }),
    header.getByLabel("Language"),
  ]) {
    const box = (await control.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(320);
  }
});

/** Every discount badge in `scope` lies wholly outside its card's picture. */
async function expectBadgesOffPictures(cards: ReturnType<Page["locator"]>, badgeText: RegExp) {
  const count = await cards.count();
  let seen = 0;
  for (let index = 0; index < count; index++) {
    const card = cards.nth(index);
    const badge = card.getByText(badgeText);
    if ((await badge.count()) === 0) continue;
    seen++;
    const picture = (await card.locator("img").first().boundingBox())!;
    const label = (await badge.boundingBox())!;
    const overlaps =
      label.x < picture.x + picture.width &&
      picture.x < label.x + label.width &&
      label.y < picture.y + picture.height &&
      picture.y < label.y + label.height;
    expect(overlaps, `badge ${index} over its picture`).toBe(false);
  }
  expect(seen).toBeGreaterThan(0);
}

const BADGE = { en: /^100% OFF on 3º unit$/, es: /^100% OFF en la 3ª unidad$/ };

for (const width of [320, 390, 480]) {
  for (const language of ["en", "es"] as const) {
    test(`at ${width} px (${language}) discount badges stay off the pictures of the listing, the related products' carousel and the wishlist`, async ({
      page,
      baseURL,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await speak(page, baseURL, language);
      // The mice: 'Buy two mouses, get the third one free' every day, the longest badge of the demo store.
      await page.goto("/products?categoryId=6&offset=1");
      const listing = page.getByRole("main").getByRole("article");
      await expect(listing.first().getByText(BADGE[language])).toBeVisible();
      await expectBadgesOffPictures(listing, BADGE[language]);

      // A mouse's related products are mice, in a carousel (the home's carousels draw random categories).
      await page.goto("/product/11");
      await scrollToTheEnd(page);
      const related = page.getByRole("region", {
        name: language === "en" ? "Related products" : "Productos relacionados",
      });
      // The mice come a few pages in: the carousel moves on until one shows.
      const next = related.getByRole("button", {
        name: language === "en" ? "Next products" : "Productos siguientes",
      });
      // Only the shown page's cards count: the next page waits in the DOM, hidden from everyone.
      const shownBadges = related.getByRole("article").getByText(BADGE[language]);
      await expect(async () => {
        if ((await shownBadges.count()) === 0) await next.click();
        expect(await shownBadges.count()).toBeGreaterThan(0);
      }).toPass({ timeout: 20_000 });
      await expectBadgesOffPictures(related.getByRole("article"), BADGE[language]);

      // The guest's wishlist card.
      await page.evaluate(() => localStorage.removeItem("inWishList"));
      await page.goto("/products?categoryId=6&offset=1");
      await listing
        .first()
        .getByRole("button", { name: /wishlist$|favoritos$/ })
        .click();
      await page.goto("/wishlist");
      const wishlist = page.getByRole("main").getByRole("article");
      await expect(wishlist.first().getByText(BADGE[language])).toBeVisible();
      await expectBadgesOffPictures(wishlist, BADGE[language]);
    });
  }
}

/** The header's controls in the order Tab reaches them. */
async function headerTabOrder(page: Page, signedInShopper: boolean) {
  const header = page.getByRole("banner");
  const targets = {
    home: header.getByRole("link", { name: "Voltio" }),
    categories: header.getByRole("button", { name: "Categories" }),
    search: header.getByRole("combobox", { name: "Search products" }),
    wishlist: header.getByRole("link", { name: /^Wishlist/ }),
    cart: header.getByRole("link", { name: /^Shopping cart/ }),
    account: signedInShopper
      ? header.getByRole("button", { name: /Account menu/ })
      : header.getByRole("link", { name: "Log in / Sign up" }),
    theme: header.getByRole("button", { name: "Switch to dark mode" }),
    language: header.getByLabel("Language"),
  };
  const reached: string[] = [];
  await page.locator("body").focus();
  for (let press = 0; press < 14 && reached.length < Object.keys(targets).length; press++) {
    await page.keyboard.press("Tab");
    for (const [name, target] of Object.entries(targets)) {
      if (!reached.includes(name) && (await target.evaluate((element) => element === document.activeElement)))
        reached.push(name);
    }
  }
  return reached;
}

for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
  test(`at ${viewport.width} px the header's tab order reaches Categories and Search before the cart, login, theme and language`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto("/products?offset=1");
    expect(await headerTabOrder(page, false)).toEqual([
      "home",
      "categories",
      "search",
      "wishlist",
      "cart",
      "account",
      "theme",
      "language",
    ]);
    // The phone still shows the icons on the top row, beside the logo, and Categories under them.
    const header = page.getByRole("banner");
    const logo = (await header.getByRole("link", { name: "Voltio" }).boundingBox())!;
    const cart = (await header.getByRole("link", { name: /^Shopping cart/ }).boundingBox())!;
    const categories = (await header.getByRole("button", { name: "Categories" }).boundingBox())!;
    expect(Math.abs(cart.y + cart.height / 2 - (logo.y + logo.height / 2))).toBeLessThan(4);
    if (viewport.width < 768) expect(categories.y).toBeGreaterThan(logo.y + logo.height);
    else expect(categories.x).toBeLessThan(cart.x);
  });
}

test("signed in, the tab order is the same: Categories and Search before the shopper's icons", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(page, SHOPPER);
  await page.goto("/");
  await expect(page.getByRole("button", { name: /Account menu/ })).toBeVisible();
  const order = await headerTabOrder(page, true);
  expect(order.slice(0, 3)).toEqual(["home", "categories", "search"]);
  expect(order.indexOf("account")).toBeGreaterThan(order.indexOf("cart"));
});

test('Spanish pages carry lang="es": drawn in the browser, and after switching', async ({
  page,
  baseURL,
}) => {
  // The server's HTML names it from the language switch's cookie: apps/server/src/modules/web/pages.test.ts.
  // Switching in the page: the attribute follows at once, and the next page arrives in Spanish.
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.getByLabel("Language").selectOption("es");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("button", { name: "Categorías" })).toBeVisible();
  await page.goto("/cart");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("main").getByText("Este carrito está vacío")).toBeVisible();

  // A Spanish choice kept only in the browser (no cookie yet) is still named once the page starts.
  await page.context().clearCookies();
  await page.goto("/wishlist");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  expect((await page.context().cookies(baseURL!)).some((cookie) => cookie.name === "lang")).toBe(true);

  // And back.
  await page.getByLabel("Idioma").selectOption("en");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test("the sales banner and a sale's price and badge pass axe's color-contrast at 390 px, light and dark", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto("/");
  await expect(page.getByRole("main").getByText("100% OFF").first()).toBeVisible();
  await expectContrastInBothThemes(page);
  // The listing in the dark theme the home page was left in, then in the light one.
  await page.goto("/products?categoryId=6&offset=1");
  await expect(page.getByRole("main").getByText(BADGE.en).first()).toBeVisible();
  await expectContrastInBothThemes(page);
});

/** expectContrast in the theme the page shows, then in the other one, switched in the same page. */
async function expectContrastInBothThemes(page: Page) {
  const dark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
  await expectContrast(page);
  await switchTheme(page, dark ? "light" : "dark");
  await expectContrast(page);
}

/** axe's color-contrast rule (WCAG AA: 4.5:1 for text) on what the page shows now. */
async function expectContrast(page: Page) {
  const violations = await axeViolations(page, { rules: ["color-contrast"] });
  expect(violations.flatMap((violation) => violation.nodes.map((node) => node.target.join(" ")))).toEqual([]);
}

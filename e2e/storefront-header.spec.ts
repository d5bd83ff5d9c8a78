import { clickForToast, expect, test, type Page } from "./fixtures";

/** Journeys of the sticky header (docs/product-rules.md §1 Header): search combobox, categories, previews, theme. */

const searchBox = (page: Page) => page.getByRole("combobox", { name: "Search products" });
/** The suggestions (the language select has options of its own). */
const suggestions = (page: Page) => page.getByRole("listbox", { name: "Suggestions" }).getByRole("option");

test("search suggestions need more than 2 characters, then list 'Category:' entries and products", async ({
  page,
}) => {
  const searches: string[] = [];
  page.on("request", (request) => {
    const search = new URL(request.url()).searchParams.get("search");
    if (request.url().includes("/api/") && search !== null) searches.push(search);
  });
  await page.clock.install();
  await page.goto("/products?offset=1");
  const box = searchBox(page);
  await box.fill("mo");
  // Past the typing pause on the page's clock: still nothing to show, or to ask for, with 2 characters.
  await page.clock.runFor(1000);
  await expect(box).toHaveAttribute("aria-expanded", "false");
  await expect(suggestions(page)).toHaveCount(0);

  await box.fill("mou");
  await page.clock.runFor(1000);
  await expect(box).toHaveAttribute("aria-expanded", "true");
  // Requests go out in order: by the time "mou" is asked for, a request for "mo" would have gone first.
  await expect.poll(() => searches).toContain("mou");
  expect(searches).not.toContain("mo");
  const listbox = page.getByRole("listbox", { name: "Suggestions" });
  await expect(box).toHaveAttribute("aria-controls", (await listbox.getAttribute("id"))!);
  await expect(listbox.getByRole("option", { name: "Category: Mouse" })).toBeVisible();
  const product = listbox.getByRole("option", { name: /Logitech M510 Wireless Computer Mouse/ });
  await expect(product).toBeVisible();
  await expect(product).toContainText("US$ 29.99");
  await expect(product.locator("img")).toHaveAttribute("src", /\/illustrations\//);
});

test("arrow keys move through the suggestions and Enter opens the chosen category", async ({ page }) => {
  await page.goto("/");
  const box = searchBox(page);
  await box.fill("mouse");
  const category = suggestions(page).filter({ hasText: "Category: Mouse" });
  await expect(category).toBeVisible();
  await box.press("ArrowDown");
  await expect(category).toHaveAttribute("aria-selected", "true");
  await expect(box).toHaveAttribute("aria-activedescendant", (await category.getAttribute("id"))!);
  await box.press("Enter");
  await expect(page).toHaveURL(/\/products\?categoryId=6&offset=1$/);
  await expect(page.getByRole("heading", { level: 1, name: "Mouse" })).toBeVisible();
});

test("picking a product suggestion with the mouse opens its page; Escape closes the list", async ({
  page,
}) => {
  await page.goto("/");
  const box = searchBox(page);
  await box.fill("webcam");
  await expect(suggestions(page).first()).toBeVisible();
  await box.press("Escape");
  await expect(box).toHaveAttribute("aria-expanded", "false");
  await box.press("ArrowDown");
  await expect(box).toHaveAttribute("aria-expanded", "true");
  await suggestions(page).filter({ hasText: "Logitech C270 HD Webcam" }).click();
  await expect(page).toHaveURL(/\/product\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Logitech C270 HD Webcam/);
});

test("Enter searches the text; an empty submit is ignored", async ({ page }) => {
  await page.goto("/product/3");
  await searchBox(page).fill("   ");
  await searchBox(page).press("Enter");
  await expect(page).toHaveURL(/\/product\/3$/);
  await searchBox(page).fill("ssd");
  await searchBox(page).press("Enter");
  await expect(page).toHaveURL(/\/products\?search=ssd&offset=1$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “ssd”");
  // The box keeps what was searched, after a reload (server-rendered) too, and empties away from results.
  await expect(searchBox(page)).toHaveValue("ssd");
  await page.reload();
  await expect(searchBox(page)).toHaveValue("ssd");
  await page.goto("/product/3");
  await expect(searchBox(page)).toHaveValue("");
});

test("on a 390 px phone the suggestions span the header, so their titles can be read", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.clock.install();
  await page.goto("/products?offset=1");
  await searchBox(page).fill("monitor");
  await page.clock.runFor(1000);
  const product = page.getByRole("option", { name: /HP M27ha FHD Monitor/ });
  await expect(product).toBeVisible();
  const list = await page.getByRole("listbox", { name: "Suggestions" }).boundingBox();
  expect(list!.width).toBeGreaterThan(340);
  // The whole title on one or two lines, not cut to its first letters.
  await expect(product.getByText("HP M27ha FHD Monitor", { exact: true })).toBeVisible();
  const title = await product.getByText("HP M27ha FHD Monitor", { exact: true }).boundingBox();
  expect(title!.width).toBeGreaterThan(120);
});

test("the Categories dropdown lists every category and links to its listing, by keyboard too", async ({
  page,
}) => {
  await page.goto("/");
  const button = page.getByRole("button", { name: "Categories" });
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await button.focus();
  await page.keyboard.press("ArrowDown");
  await expect(button).toHaveAttribute("aria-expanded", "true");
  const menu = page.locator(`[id="${await button.getAttribute("aria-controls")}"]`);
  // The 16 demo categories in their order, then any a journey beside this one made for its products, then
  // 'All products'.
  const demo = ((await (await page.request.get("/api/categories")).json()) as { id: number; name: string }[])
    .filter(({ id }) => id <= 16)
    .map(({ name }) => name);
  expect(demo).toHaveLength(16);
  await expect(menu.getByRole("link", { name: "Computers" })).toBeFocused();
  const names = (await menu.getByRole("link").allTextContents()).map((name) => name.trim());
  expect(names.slice(0, 16)).toEqual(demo);
  expect(names.at(-1)).toBe("All products");
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("link", { name: "Pc Desktop" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(button).toBeFocused();

  await button.click();
  await menu.getByRole("link", { name: "Laptops" }).click();
  await expect(page).toHaveURL(/\/products\?categoryId=16&offset=1$/);
  await expect(button).toHaveAttribute("aria-expanded", "false");
});

test("the cart and wishlist previews show the first 2 lines of the guest lists", async ({ page }) => {
  await page.goto("/products?offset=1");
  const cards = page.getByRole("article");
  await expect(cards.first()).toBeVisible();
  const titles: string[] = [];
  for (let index = 0; index < 3; index++) {
    const card = cards.nth(index);
    titles.push((await card.getByRole("heading").textContent())!.trim());
    await card.getByRole("button", { name: /to the cart$/ }).click();
  }
  await cards
    .nth(4)
    .getByRole("button", { name: /to the wishlist$/ })
    .click();

  const cart = page.getByRole("link", { name: "Shopping cart, 3 items" });
  await expect(cart).toHaveAttribute("href", "/cart");
  await cart.hover();
  const preview = page.locator(`[id="${await cart.getAttribute("aria-describedby")}"]`);
  await expect(preview.getByRole("link", { name: titles[0] })).toBeVisible();
  await expect(preview.getByRole("link", { name: titles[1] })).toBeVisible();
  await expect(preview.getByRole("link", { name: titles[2] })).toHaveCount(0);
  await expect(preview).toContainText("+1 more product");

  const wishlist = page.getByRole("link", { name: "Wishlist, 1 product" });
  await wishlist.hover();
  await expect(page.getByRole("link", { name: "Go to wishlist" })).toBeVisible();

  // The lists are the SPEC's localStorage keys, so they survive a reload.
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("inCart") ?? "[]").length);
  expect(stored).toBe(3);
  await page.reload();
  await expect(page.getByRole("link", { name: "Shopping cart, 3 items" })).toBeVisible();
});

test("an empty cart preview says so; keyboard focus opens the preview too", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Shopping cart, 0 items" }).focus();
  await expect(page.getByText("This cart is empty")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByText("This cart is empty")).toBeHidden();
  await page.getByRole("link", { name: "Wishlist, 0 products" }).hover();
  await expect(page.getByText("This Wishlist is empty")).toBeVisible();
});

test("guests get 'Log in / Sign up' linking to /login", async ({ page }) => {
  await page.goto("/products?offset=1");
  await expect(page.getByRole("link", { name: "Log in / Sign up" })).toHaveAttribute("href", "/login");
});

test("the header stays on screen while the page scrolls", async ({ page }) => {
  await page.goto("/product/11");
  await page.mouse.wheel(0, 2000);
  await expect(page.getByRole("banner")).toBeInViewport();
  const top = await page.getByRole("banner").evaluate((header) => header.getBoundingClientRect().top);
  expect(top).toBe(0);
});

test("dark mode is designed, not inverted, and remembered across visits", async ({ page }) => {
  await page.goto("/products?offset=1");
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  await page.getByRole("button", { name: "Switch to dark mode" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  const dark = await background();
  expect(dark).not.toBe(light);
  expect(dark).toBe("rgb(11, 17, 32)");
  await page.goto("/product/11");
  await expect(page.locator("html")).toHaveClass(/dark/);
});

test("the language switch turns the header, listing and toasts into Spanish", async ({ page }) => {
  await page.goto("/products?categoryId=6&offset=1");
  await page.getByLabel("Language").selectOption("es");
  await expect(page.getByRole("button", { name: "Categorías" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ingresar / Registrarse" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Filtros" }).first()).toBeAttached();
  await clickForToast(
    page,
    page
      .getByRole("article")
      .first()
      .getByRole("button", { name: /al carrito$/ }),
    "¡Agregado al carrito!",
  );
});

import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { builtWebApp } from "../../../test/builds";

/**
 * What the storefront's pages say as the server renders them for the demo store, read from the HTML alone
 * (no script runs): these were browser journeys, and need no browser. What needs one (hydration, clicks,
 * layout, axe) stays in e2e/. The test app's clock is a Wednesday: no day sale but the mice's runs.
 */

let t: TestContext;
/** Parses the HTML only: a parsed document runs no script and loads nothing. */
const window = new Window();
beforeAll(async () => {
  t = await createTestApp({ env: { WEB_DIST: await builtWebApp() } });
}, 180_000);
afterAll(async () => {
  await window.happyDOM.close();
  await t?.close();
});

/** The page as the server sends it, parsed, with its status. */
async function page(url: string) {
  const reply = await t.app.inject({ url });
  const document = new window.DOMParser().parseFromString(reply.body, "text/html");
  const all = (selector: string) => Array.from(document.querySelectorAll(selector));
  const text = (selector: string) => all(selector).map((element) => element.textContent.trim());
  const main = document.querySelector("main")!;
  return { status: reply.statusCode, document, all, text, main: main.textContent.replace(/\s+/g, " ") };
}

const hrefs = (elements: { getAttribute(name: string): string | null }[]) =>
  elements.map((element) => element.getAttribute("href"));

/** A variant's stock as its product page says it (apps/web features/product/StockText.tsx, 5 or fewer: few). */
const stockText = (stock: number) =>
  stock <= 0 ? "Sold out" : stock <= 5 ? `Only ${stock} left` : `Stock: ${stock}`;

describe("a product page", () => {
  it("shows its category chips, title, the mice's discount badge, price, shipping in u$s and stock", async () => {
    const product = await page("/product/11");
    expect(product.status).toBe(200);
    expect(product.text("main h1")).toEqual(["Logitech M510 Wireless Computer Mouse"]);
    const chips = product.all('main ul[aria-label="Categories"] a');
    expect(chips.map((chip) => chip.textContent)).toEqual(["Peripheral", "Mouse"]);
    expect(hrefs(chips)).toEqual(["/products?categoryId=4&offset=1", "/products?categoryId=6&offset=1"]);
    expect(product.text("main span")).toContain("100% OFF on 3º unit");
    // Sold in colours (issue 41): the first with stock is shown, its price and stock.
    const { variants } = (await t.app.inject({ url: "/api/products/11" })).json() as {
      variants: { id: number; price: number; stock: number; options: Record<string, string> }[];
    };
    const first = variants.find((variant) => variant.stock > 0)!;
    expect(product.text("main p")).toEqual(
      expect.arrayContaining([
        `US$ ${first.price.toFixed(2)}`,
        "Shipping: u$s 12.99",
        stockText(first.stock),
      ]),
    );
  });

  it("renders the variant its URL names: checked, with its price and its stock", async () => {
    const { variants } = (await t.app.inject({ url: "/api/products/11" })).json() as {
      variants: { id: number; price: number; stock: number; options: Record<string, string> }[];
    };
    const last = variants[variants.length - 1]!;
    const product = await page(`/product/11?variant=${last.id}`);
    const checked = product.all('main input[type="radio"]').filter((input) => input.hasAttribute("checked"));
    expect(checked.map((input) => input.getAttribute("value"))).toEqual([last.options.Colour]);
    expect(product.text("main p")).toEqual(
      expect.arrayContaining([`US$ ${last.price.toFixed(2)}`, stockText(last.stock)]),
    );
    expect(product.text("main legend")).toEqual([`Colour: ${last.options.Colour}`]);
  });

  it("lists every sentence of the description as a bullet (the empty fragment after the final '. ' dropped), then the reviews", async () => {
    const { description } = (await t.app.inject({ url: "/api/products/11" })).json() as {
      description: string;
    };
    expect(description.endsWith(". ")).toBe(true);
    const sentences = description
      .split(". ")
      .slice(0, -1)
      .map((part) => part.trim())
      .filter(Boolean);
    const product = await page("/product/11");
    expect(product.text('section[aria-labelledby="description-heading"] li')).toEqual(sentences);
    expect(product.text("#reviews-heading")).toEqual(["Reviews"]);
  });

  it("of a desktop shows its price, its category's link and its stock", async () => {
    const product = await page("/product/2");
    expect(product.text("main h1")[0]).toMatch(/^Acer Aspire TC-1660/);
    expect(product.text("main p")).toEqual(expect.arrayContaining(["US$ 549.00", "Stock: 100"]));
    const chip = product
      .all('main ul[aria-label="Categories"] a')
      .find((a) => a.textContent === "Pc Desktop");
    expect(chip?.getAttribute("href")).toBe("/products?categoryId=2&offset=1");
  });
});

describe("the listing", () => {
  it("of every product counts the demo's 58 for sale and shows the first 16", async () => {
    const listing = await page("/products?offset=1");
    expect(listing.text("main p[aria-live]")).toEqual(["58 products"]);
    expect(listing.all('main section[aria-labelledby="listing-results"] article')).toHaveLength(16);
    // The last page holds the other 10.
    expect((await page("/products?offset=4")).all("main article")).toHaveLength(10);
  });

  it("of a category is headed and titled by its name", async () => {
    const peripheral = await page("/products?categoryId=4&offset=1");
    expect(peripheral.text("main h1")).toEqual(["Peripheral"]);
    expect(peripheral.text("title")).toEqual(["Peripheral | Voltio"]);
  });

  it("past its last page says there is no such page, how many there are, and links to the last", async () => {
    const past = await page("/products?offset=9");
    expect(past.main).toContain("There is no page 9");
    expect(past.main).toContain("These products fit on 4 pages.");
    expect(past.main).not.toContain("58 products");
    expect(past.main).not.toContain("No results found");
    const last = past.all("main a").find((a) => a.textContent.trim() === "Go to page 4");
    expect(last?.getAttribute("href")).toBe("/products?offset=4");
  });

  it("of an unknown category says so, with a 404, and never as 'All products'", async () => {
    const unknown = await page("/products?categoryId=99999&offset=1");
    expect(unknown.status).toBe(404);
    expect(unknown.text("main h1")).toEqual(["Category not found"]);
    expect(unknown.main).toContain("There is no category number 99999.");
  });
});

describe("not-found pages", () => {
  it("an unknown path answers 404 with the page saying so", async () => {
    const missing = await page("/no/such/page");
    expect(missing.status).toBe(404);
    expect(missing.text("main h1")).toEqual(["Page not found"]);
  });
});

describe("about us", () => {
  it("shows eight team members, each with a professional-network and a code-host link", async () => {
    const about = await page("/profiles");
    expect(about.text("main h1")).toEqual(["About us"]);
    const members = about.all("main li");
    expect(members).toHaveLength(8);
    for (const member of members) {
      const name = member.querySelector("h2")!.textContent.trim();
      const link = (label: string) => member.querySelector(`a[aria-label="${name} on ${label}"]`);
      expect(link("LinkedIn")?.getAttribute("href"), name).toMatch(/^https:\/\/www\.linkedin\.com\/in\//);
      expect(link("GitHub")?.getAttribute("href"), name).toMatch(/^https:\/\/github\.com\//);
    }
  });
});

describe("the home page", () => {
  it("has the footer: About us, help, only the non-empty networks, My account, 2022", async () => {
    const home = await page("/");
    const footer = home.document.querySelector("footer")!;
    const link = (name: string) =>
      Array.from(footer.querySelectorAll("a")).find(
        (a) => a.getAttribute("aria-label") === name || a.textContent.trim() === name,
      );
    expect(link("About us")?.getAttribute("href")).toBe("/profiles");
    expect(link("Need help? Contact us")?.getAttribute("href")).toMatch(/^mailto:/);
    // The demo store has Facebook and Instagram links and an empty Twitter one.
    expect(link("Follow us on Facebook")?.getAttribute("href")).toBe("https://facebook.com/voltio.store");
    expect(link("Follow us on Instagram")?.getAttribute("href")).toBe("https://instagram.com/voltio.store");
    expect(link("Follow us on Twitter")).toBeUndefined();
    for (const name of ["Profile", "Favorites", "Shopping cart", "Purchases"])
      expect(link(name), name).toBeDefined();
    expect(footer.textContent).toContain("© 2022");
  });

  it("offers a shortcut to each category with a product for sale and to all products, never to a sold-out one", async () => {
    // A category of its own whose only product is sold out: nothing to buy there.
    const created = await t.app.inject({
      method: "POST",
      url: "/api/products",
      headers: await t.bearer(1),
      payload: {
        title: "Sold-out lamp",
        name: "Lamp",
        price: "10",
        shippingCost: "0",
        description: "Lights. ",
        stock: 0,
        categories: ["Sold-out lamps"],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const shortcuts = (await page("/")).text('nav[aria-labelledby="home-categories"] a');
    // The 16 demo categories and 'All products'.
    expect(shortcuts).toHaveLength(16 + 1);
    expect(shortcuts).toContain("All products");
    expect(shortcuts).toContain("Laptops");
    expect(shortcuts).not.toContain("Sold-out lamps");
  });
});

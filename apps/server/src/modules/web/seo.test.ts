import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { builtWebApp } from "../../../test/builds";
import { products } from "../../db/schema";

/** What the server writes into a page's head before any script runs (point 7), and robots/sitemap. */

const PUBLIC_URL = "https://shop.example";
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ env: { WEB_DIST: await builtWebApp(), PUBLIC_URL } });
}, 180_000);
afterAll(() => t?.close());

const get = async (url: string) => {
  const reply = await t.app.inject({ url });
  return { status: reply.statusCode, html: reply.body };
};
const jsonLd = (html: string) =>
  JSON.parse(html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)![1]!) as Record<
    string,
    unknown
  >;
const title = async (path: string) => (await get(path)).html.match(/<title>(.*?)<\/title>/)![1];

describe("product pages", () => {
  it("carry title, description, canonical URL and, for a product sold in colours, ProductGroup JSON-LD", async () => {
    const { status, html } = await get("/product/11?variant=1");
    expect(status).toBe(200);
    expect(html).toContain("<title>Logitech M510 Wireless Computer Mouse | Voltio</title>");
    expect(html).toMatch(/<meta name="description" content="[^"]{20,}">/);
    // Every variant's URL names the same page: the product's is canonical.
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/product/11">`);
    const data = jsonLd(html);
    expect(data).toMatchObject({
      "@type": "ProductGroup",
      name: "Logitech M510 Wireless Computer Mouse",
      productGroupID: "11",
      brand: { "@type": "Brand", name: "Logitech" },
      variesBy: ["Colour"],
    });
    expect((data.image as string[])[0]).toMatch(/^https:\/\/shop\.example\/illustrations\//);
    const { variants } = (await t.app.inject({ url: "/api/products/11" })).json() as {
      variants: { id: number; sku: string; price: number; stock: number; options: { Colour: string } }[];
    };
    expect(variants.length).toBeGreaterThan(1);
    const offers = data.hasVariant as { name: string; sku: string; offers: Record<string, string> }[];
    expect(offers.map((variant) => variant.name)).toEqual(
      variants.map((variant) => `Logitech M510 Wireless Computer Mouse — ${variant.options.Colour}`),
    );
    // The mouse sale (the third unit free) leaves each unit price as it is, whatever the day.
    expect(offers.map((variant) => variant.offers)).toEqual(
      variants.map((variant) => ({
        "@type": "Offer",
        price: variant.price.toFixed(2),
        priceCurrency: "USD",
        availability: variant.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
        url: `${PUBLIC_URL}/product/11?variant=${variant.id}`,
      })),
    );
    expect(offers.map((variant) => variant.sku)).toEqual(variants.map((variant) => variant.sku));
  });

  it("a product sold one way keeps its Product JSON-LD with one offer", async () => {
    const data = jsonLd((await get("/product/5")).html);
    expect(data).toMatchObject({ "@type": "Product", sku: "5" });
    expect(data).not.toHaveProperty("hasVariant");
    expect(data.offers).toMatchObject({ priceCurrency: "USD", url: `${PUBLIC_URL}/product/5` });
  });

  it("state the rating kept beside a reviewed product, and none without reviews", async () => {
    expect(jsonLd((await get("/product/11")).html)).not.toHaveProperty("aggregateRating");
    await t.database.db.update(products).set({ ratingSum: 9, ratingCount: 2 }).where(eq(products.id, 5));
    expect(jsonLd((await get("/product/5")).html).aggregateRating).toEqual({
      "@type": "AggregateRating",
      ratingValue: "4.5",
      reviewCount: 2,
      bestRating: "5",
      worstRating: "1",
    });
  });

  it("price today's sale on every unit into the JSON-LD", async () => {
    const data = jsonLd((await get("/product/2")).html);
    expect(data).toMatchObject({ "@type": "Product", name: "Acer Aspire TC-1660-UA92 Desktop" });
    // The demo's only sale for this desktop is 10% off everything on Fridays.
    const { today } = (await t.app.inject({ url: "/api/store" })).json();
    expect((data.offers as Record<string, unknown>).price).toBe(today === "fri" ? "494.10" : "549.00");
  });

  it("mark an out-of-stock product OutOfStock; an unknown one is a 404 kept out of the index", async () => {
    const { html } = await get("/product/16");
    expect((jsonLd(html).offers as Record<string, unknown>).availability).toBe(
      "https://schema.org/OutOfStock",
    );
    for (const path of ["/product/999999", "/product/abc", "/product/0", "/product/99999999999"]) {
      const missing = await get(path);
      expect(missing.status, path).toBe(404);
      expect(missing.html).toContain("<title>Product Not Found! | Voltio</title>");
      expect(missing.html).toContain('<meta name="robots" content="noindex">');
    }
  });
});

describe("other pages", () => {
  it("each get their own title", async () => {
    expect(await title("/")).toBe("Voltio | Technology store");
    expect(await title("/products?offset=1")).toBe("Products | Voltio");
    expect(await title("/profiles")).toBe("About us | Voltio");
    expect(await title("/products?categoryId=16&offset=1")).toBe("Laptops | Voltio");
    expect(await title("/login")).toBe("Log in / Sign up | Voltio");
    expect(await title("/no/such/page")).toBe("Page not found | Voltio");
  });

  it("a category page is its own canonical URL; a search is followed but not indexed", async () => {
    const category = (await get("/products?categoryId=16&offset=2&order=ASC")).html;
    expect(category).toContain(
      `<link rel="canonical" href="${PUBLIC_URL}/products?categoryId=16&amp;offset=2">`,
    );
    const search = (await get("/products?search=mouse&offset=1")).html;
    expect(search).toContain('<meta name="robots" content="noindex, follow">');
  });

  it("a category id that names no category answers 404, titled so and kept out of the index", async () => {
    for (const path of [
      "/products?categoryId=99999&offset=1",
      "/products?categoryId=99999&offset=3&order=ASC",
    ]) {
      const { status, html } = await get(path);
      expect(status, path).toBe(404);
      expect(html).toContain("<title>Category not found | Voltio</title>");
      expect(html).toContain('<meta name="robots" content="noindex">');
    }
    expect(await title(`/products?search=${"a".repeat(1200)}&offset=1`)).toBe(
      "That search is too long | Voltio",
    );
    // Not a category id at all: the listing of every product, as the storefront reads it.
    expect((await get("/products?categoryId=abc&offset=1")).status).toBe(200);
  });

  it("unknown paths answer 404 with the not-found page", async () => {
    const { status, html } = await get("/no/such/page");
    expect(status).toBe(404);
    expect(html).toContain("Page not found");
  });
});

describe("robots.txt and sitemap.xml", () => {
  it("robots.txt keeps crawlers out of the admin and the API and points at the sitemap", async () => {
    const reply = await t.app.inject({ url: "/robots.txt" });
    expect(reply.headers["content-type"]).toMatch(/^text\/plain/);
    expect(reply.body).toContain("Disallow: /admin");
    expect(reply.body).toContain("Disallow: /api/");
    expect(reply.body).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it("the sitemap lists the home, the listing, about us, every category and every product in stock", async () => {
    const reply = await t.app.inject({ url: "/sitemap.xml" });
    expect(reply.headers["content-type"]).toMatch(/^application\/xml/);
    const sitemap = reply.body;
    for (const path of ["/", "/products?offset=1", "/profiles"])
      expect(sitemap).toContain(`<loc>${PUBLIC_URL}${path.replace("&", "&amp;")}</loc>`);
    const categories = (await t.app.inject({ url: "/api/categories" })).json() as { id: number }[];
    expect(categories.length).toBe(16);
    for (const { id } of categories)
      expect(sitemap).toContain(`<loc>${PUBLIC_URL}/products?categoryId=${id}&amp;offset=1</loc>`);
    const { products } = (await t.app.inject({ url: "/api/products?limit=1000" })).json();
    for (const { id } of products as { id: number }[])
      expect(sitemap).toContain(`<loc>${PUBLIC_URL}/product/${id}</loc>`);
    expect(sitemap).toContain("/product/59</loc>");
    // The HOTWEEMS mouse has no stock.
    expect(sitemap).not.toContain("/product/16</loc>");
  });
});

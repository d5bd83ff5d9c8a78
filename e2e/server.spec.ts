import { expect, test } from "./fixtures";

test("product pages carry their title, description, canonical URL and Product JSON-LD in the HTML", async ({
  request,
}) => {
  const reply = await request.get("/product/11");
  expect(reply.status()).toBe(200);
  const html = await reply.text();
  expect(html).toContain("<title>Logitech M510 Wireless Computer Mouse | Voltio</title>");
  expect(html).toMatch(/<link rel="canonical" href="http:\/\/localhost:\d+\/product\/11">/);
  const jsonLd = JSON.parse(html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)![1]!);
  expect(jsonLd).toMatchObject({ "@type": "Product", name: "Logitech M510 Wireless Computer Mouse" });
  expect(jsonLd.offers).toMatchObject({
    price: "29.99",
    priceCurrency: "USD",
    availability: "https://schema.org/InStock",
  });
});

test("robots.txt and sitemap.xml", async ({ request }) => {
  const robots = await request.get("/robots.txt");
  expect(await robots.text()).toContain("Sitemap:");
  const sitemap = await (await request.get("/sitemap.xml")).text();
  expect(sitemap).toContain("/products?categoryId=16&amp;offset=1");
  expect(sitemap).toContain("/product/59</loc>");
  expect(sitemap).not.toContain("/product/16</loc>");
});

test("assets are served precompressed with long caching; unknown API paths are JSON 404s", async ({
  request,
  page,
}) => {
  await page.goto("/");
  const script = await page.locator("link[rel=modulepreload]").first().getAttribute("href");
  const asset = await request.get(script!, { headers: { "accept-encoding": "br, gzip" } });
  expect(asset.headers()["content-encoding"]).toBe("br");
  expect(asset.headers()["cache-control"]).toContain("immutable");
  const api = await request.get("/api/nothing-here");
  expect(api.status()).toBe(404);
  expect(await api.json()).toEqual({ error: "Not Found" });
});

import { expect, test } from "./fixtures";

/** What the server writes into the HTML before any script runs (issue 3, point 7). */

const jsonLd = (html: string) =>
  JSON.parse(html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)![1]!) as Record<
    string,
    unknown
  >;

test("a product page carries title, description, canonical URL and Product JSON-LD with today's price", async ({
  request,
}) => {
  const html = await (await request.get("/product/2")).text();
  expect(html).toContain("<title>Acer Aspire TC-1660-UA92 Desktop | Voltio</title>");
  expect(html).toMatch(/<meta name="description" content="[^"]{20,}">/);
  expect(html).toMatch(/<link rel="canonical" href="http:\/\/localhost:\d+\/product\/2">/);
  const data = jsonLd(html);
  expect(data).toMatchObject({ "@type": "Product", name: "Acer Aspire TC-1660-UA92 Desktop" });
  expect((data.image as string[])[0]).toMatch(/^http:\/\/localhost:\d+\/illustrations\//);
  // The demo's only sale for this desktop is 10% off everything on Fridays.
  const { today } = await (await request.get("/api/store")).json();
  expect(data.offers).toMatchObject({
    price: today === "fri" ? "494.10" : "549.00",
    priceCurrency: "USD",
    availability: "https://schema.org/InStock",
  });
});

test("an out-of-stock product is marked OutOfStock; an unknown one is a 404 kept out of the index", async ({
  request,
}) => {
  const html = await (await request.get("/product/16")).text();
  expect((jsonLd(html).offers as Record<string, unknown>).availability).toBe("https://schema.org/OutOfStock");
  const missing = await request.get("/product/999999");
  expect(missing.status()).toBe(404);
  const body = await missing.text();
  expect(body).toContain("<title>Product Not Found! | Voltio</title>");
  expect(body).toContain('<meta name="robots" content="noindex">');
});

test("every page gets its own title; category pages are their own canonical URL", async ({ request }) => {
  const title = async (path: string) =>
    (await (await request.get(path)).text()).match(/<title>(.*?)<\/title>/)![1];
  expect(await title("/")).toBe("Voltio | Technology store");
  expect(await title("/products?offset=1")).toBe("Products | Voltio");
  expect(await title("/profiles")).toBe("About us | Voltio");
  expect(await title("/products?categoryId=16&offset=1")).toBe("Laptops | Voltio");

  const category = await (await request.get("/products?categoryId=16&offset=2&order=ASC")).text();
  expect(category).toMatch(
    /<link rel="canonical" href="http:\/\/localhost:\d+\/products\?categoryId=16&amp;offset=2">/,
  );
  const search = await (await request.get("/products?search=mouse&offset=1")).text();
  expect(search).toContain('<meta name="robots" content="noindex, follow">');
});

test("the sitemap lists the home, the listing, about us, every category and every product in stock", async ({
  request,
}) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const categories = (await (await request.get("/api/categories")).json()) as { id: number }[];
  for (const { id } of categories) expect(sitemap).toContain(`/products?categoryId=${id}&amp;offset=1</loc>`);
  const { products } = await (await request.get("/api/products?limit=1000")).json();
  for (const { id } of products as { id: number }[]) expect(sitemap).toContain(`/product/${id}</loc>`);
  expect(sitemap).toContain("/profiles</loc>");
});

test("the HTML starts loading the page's chunks and carries the first API replies", async ({ request }) => {
  const html = await (await request.get("/product/11")).text();
  expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/ProductPage-[^"]+\.js">/);
  expect(html).toMatch(/<link rel="preload" as="image" href="\/illustrations\/[^"]+" fetchpriority="high">/);
  const boot = JSON.parse(
    html.match(/<script type="application\/json" id="boot-data">(.*?)<\/script>/s)![1]!,
  );
  expect(boot.replies["/products/11"]).toMatchObject({
    id: 11,
    title: "Logitech M510 Wireless Computer Mouse",
  });
  expect(Object.keys(boot.replies)).toEqual(
    expect.arrayContaining(["/store", "/categories", "/networks", "/sale"]),
  );
});

import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { builtWebApp } from "../../../test/builds";

/**
 * The built web app as the server sends it (ADR 0006): storefront pages rendered in the visitor's language,
 * the page's chunks and first API replies in the HTML, compression and caching. Hydration itself needs a
 * browser: e2e/storefront-ssr.spec.ts.
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ env: { WEB_DIST: await builtWebApp() } });
}, 180_000);
afterAll(() => t?.close());

const html = async (url: string, headers: Record<string, string> = {}) => {
  const reply = await t.app.inject({ url, headers });
  expect(reply.statusCode, url).toBeLessThan(500);
  return reply.body;
};

describe("server rendering", () => {
  it("the HTML of each storefront page already holds the page", async () => {
    const product = (await t.app.inject({ url: "/api/products/2" })).json();
    const productPage = await html("/product/2");
    expect(productPage).toMatch(/<div id="root" data-language="en">.*<header/s);
    expect(productPage).toContain(`>${product.title}</h1>`);
    expect(await html("/profiles")).toContain("About us");
    expect(await html("/")).toContain("Log in / Sign up");
    expect(await html("/products?offset=1")).toMatch(/<div id="root" data-language="en">.*<header/s);
    expect(await html("/no-such-page")).toMatch(/<div id="root" data-language="en">.*Page not found/s);
  });

  it("renders in the language switch's cookie, else the browser's own language", async () => {
    const spanish = await html("/products?offset=1", { cookie: "lang=es" });
    expect(spanish).toContain('<html lang="es">');
    expect(spanish).toContain('data-language="es"');
    expect(spanish).toContain("Saltar al contenido");
    expect(await html("/", { "accept-language": "es-AR,es;q=0.9,en;q=0.8" })).toContain(
      "Saltar al contenido",
    );
    const cookieWins = await html("/", { "accept-language": "es-AR", cookie: "lang=en" });
    expect(cookieWins).toContain('<html lang="en">');
    expect(cookieWins).toContain("Skip to content");
  });

  it("pages other than the storefront's stay a shell the browser draws", async () => {
    for (const path of ["/user", "/admin/products"]) {
      expect(await html(path), path).toContain('<div id="root"></div>');
    }
    // The shell names its language too: a Spanish back office is read as Spanish.
    expect(await html("/admin/products", { cookie: "lang=es" })).toContain('<html lang="es">');
    expect(await html("/cart", { "accept-language": "es-ES" })).toContain('<html lang="es">');
    expect(await html("/cart")).toContain('<html lang="en">');
    // The sales come with the shell: the cart and wishlist price their lines at once, no skeleton first.
    const boot = JSON.parse(
      (await html("/cart")).match(/<script type="application\/json" id="boot-data">(.*?)<\/script>/s)![1]!,
    );
    expect(boot.replies["/sale"]).toEqual((await t.app.inject({ url: "/api/sale" })).json());
  });

  it("the login page comes drawn, with its texts' chunk in the visitor's language and the sign-in options", async () => {
    const english = await html("/login");
    expect(english).toMatch(/<div id="root" data-language="en">.*Put you mail to register or login/s);
    expect(english).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/LoginPage-[^"]+\.js">/);
    expect(english).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/account-en-[^"]+\.js">/);
    expect(english).not.toMatch(/account-es-/);
    const boot = JSON.parse(
      english.match(/<script type="application\/json" id="boot-data">(.*?)<\/script>/s)![1]!,
    );
    expect(boot.replies["/auth/options"]).toEqual((await t.app.inject({ url: "/api/auth/options" })).json());
    // Spanish: the Spanish texts the browser needs before drawing, the account's among them.
    const spanish = await html("/login", { cookie: "lang=es" });
    expect(spanish).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/es-[^"]+\.js">/);
    expect(spanish).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/account-es-[^"]+\.js">/);
    expect(spanish).not.toMatch(/account-en-/);
  });

  it("the HTML starts loading the page's chunks and carries the first API replies", async () => {
    const page = await html("/product/11");
    expect(page).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/ProductPage-[^"]+\.js">/);
    expect(page).toMatch(
      /<link rel="preload" as="image" href="\/illustrations\/[^"]+" fetchpriority="high">/,
    );
    const boot = JSON.parse(
      page.match(/<script type="application\/json" id="boot-data">(.*?)<\/script>/s)![1]!,
    );
    expect(boot.replies["/products/11"]).toMatchObject({
      id: 11,
      title: "Logitech M510 Wireless Computer Mouse",
    });
    expect(Object.keys(boot.replies)).toEqual(
      expect.arrayContaining(["/store", "/categories?withProducts=true", "/networks", "/sale"]),
    );
  });

  it("a listing carries its page's products under the API path the grid asks, and renders them", async () => {
    const page = await html("/products?categoryId=6&offset=1&order=ASC&utm_source=x");
    const boot = JSON.parse(
      page.match(/<script type="application\/json" id="boot-data">(.*?)<\/script>/s)![1]!,
    );
    const path = "/products?categoryId=6&offset=1&order=ASC";
    // The API's reply, less the descriptions no card shows (most of the HTML): the browser fetches it again.
    const api = (await t.app.inject({ url: `/api${path}` })).json() as {
      products: { description: string }[];
    };
    expect(api.products.every((product) => product.description.length > 0)).toBe(true);
    expect(boot.replies[path]).toEqual({
      ...api,
      products: api.products.map((product) => ({ ...product, description: "" })),
    });
    expect(boot.brief).toEqual([path]);
    expect(boot.replies["/categories"]).toHaveLength(16);
    // The grid is in the HTML: no skeleton waiting for a script.
    const first = boot.replies[path].products[0];
    expect(page).toContain(first.title);
    expect(page).not.toContain('data-testid="listing-skeleton"');
  });
});

describe("compression and caching", () => {
  it("pages are compressed per request for browsers that accept it, and never cached stale", async () => {
    const reply = await t.app.inject({ url: "/product/1", headers: { "accept-encoding": "br" } });
    expect(reply.headers["content-encoding"]).toBe("br");
    expect(reply.headers["vary"]).toContain("Accept-Encoding");
    expect(reply.headers["cache-control"]).toBe("no-cache");
    expect(brotliDecompressSync(reply.rawPayload).toString()).toContain("<h1");
    const plain = await t.app.inject({ url: "/product/1" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toContain("<h1");
  });

  it("assets are served precompressed with long caching", async () => {
    const script = (await html("/")).match(/<link rel="modulepreload" crossorigin href="([^"]+)">/)![1]!;
    const asset = await t.app.inject({ url: script, headers: { "accept-encoding": "br, gzip" } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["content-encoding"]).toBe("br");
    expect(asset.headers["cache-control"]).toContain("immutable");
    const gzip = await t.app.inject({ url: script, headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
  });

  it("unknown API paths are JSON 404s, not the not-found page", async () => {
    for (const url of ["/api/nothing-here", "/api"]) {
      const api = await t.app.inject({ url });
      expect(api.statusCode, url).toBe(404);
      expect(api.json()).toEqual({ error: "Not Found" });
    }
    const post = await t.app.inject({ method: "POST", url: "/somewhere" });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ error: "Not Found" });
  });
});

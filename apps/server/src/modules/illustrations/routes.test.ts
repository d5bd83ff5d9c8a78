import { describe, it, expect, beforeAll, afterAll } from "vitest";
import Fastify, { type FastifyInstance } from "fastify";
import { SvgCache, illustrationRoutes } from "./routes";
import { DEFAULT_PRODUCT_IMAGE } from "@voltio/domain/admin";
import {
  ILLUSTRATION_KINDS,
  categoryIllustration,
  placeholderIllustration,
  productIllustration,
} from "./svg";

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  await app.register(illustrationRoutes());
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const get = (url: string) => app.inject({ method: "GET", url });

function expectSvgHeaders(headers: Record<string, unknown>) {
  expect(headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
  expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(headers["x-content-type-options"]).toBe("nosniff");
}

describe("GET /illustrations/:kind/:variant.svg", () => {
  it.each(ILLUSTRATION_KINDS)("serves %s with the SVG headers", async (kind) => {
    const res = await get(`/illustrations/${kind}/4.svg`);
    expect(res.statusCode).toBe(200);
    expectSvgHeaders(res.headers);
    expect(res.body).toBe(productIllustration(kind, 4, ""));
    expect(res.body.startsWith("<svg ")).toBe(true);
    expect(res.body.endsWith("</svg>")).toBe(true);
  });

  it("accepts variants 0 to 999", async () => {
    for (const variant of [0, 1, 5, 42, 999]) {
      const res = await get(`/illustrations/laptop/${variant}.svg`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(productIllustration("laptop", variant, ""));
    }
  });

  it("draws the label, trimmed and cut to 24 characters", async () => {
    const res = await get(
      `/illustrations/ssd/1.svg?label=${encodeURIComponent("  SAMSUNG 980 SSD 1TB PCIe NVMe  ")}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("<title>SAMSUNG 980 SSD 1TB PCIe</title>");
    expect(res.body).toBe(productIllustration("ssd", 1, "SAMSUNG 980 SSD 1TB PCIe"));
  });

  it("escapes a hostile label", async () => {
    const res = await get(
      `/illustrations/mouse/0.svg?label=${encodeURIComponent('<script>alert(1)</script>"&')}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("<script");
    expect(res.body).toContain("&lt;script&gt;alert(1)&lt;/scr");
  });

  it("uses the first label when the parameter is repeated, and ignores an empty one", async () => {
    const repeated = await get("/illustrations/hdd/2.svg?label=One&label=Two");
    expect(repeated.body).toBe(productIllustration("hdd", 2, "One"));
    const empty = await get("/illustrations/hdd/2.svg?label=%20%20");
    expect(empty.body).toBe(productIllustration("hdd", 2, ""));
  });

  it("answers the same bytes for the same URL", async () => {
    const a = await get("/illustrations/tablet/7.svg?label=Galaxy%20Tab%20A8");
    const b = await get("/illustrations/tablet/7.svg?label=Galaxy%20Tab%20A8");
    expect(a.body).toBe(b.body);
  });

  it("answers HEAD requests", async () => {
    const res = await app.inject({ method: "HEAD", url: "/illustrations/printer/3.svg" });
    expect(res.statusCode).toBe(200);
    expectSvgHeaders(res.headers);
  });

  it.each([
    "/illustrations/toaster/1.svg",
    "/illustrations/LAPTOP/1.svg",
    "/illustrations/laptop/1000.svg",
    "/illustrations/laptop/-1.svg",
    "/illustrations/laptop/1.5.svg",
    "/illustrations/laptop/abc.svg",
    "/illustrations/laptop/007.svg",
    "/illustrations/laptop/1",
    "/illustrations/laptop/1.png",
    "/illustrations/laptop/.svg",
    "/illustrations/laptop/1.svg.svg",
    "/illustrations/category/toaster.svg",
    "/illustrations/category/laptop",
    "/illustrations/category/laptop.png",
    "/illustrations/category/1.svg",
  ])("404 for %s", async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "Illustration Not Found" });
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
  });
});

describe("GET /illustrations/category/:kind.svg", () => {
  it.each(ILLUSTRATION_KINDS)("serves the %s category picture", async (kind) => {
    const res = await get(`/illustrations/category/${kind}.svg`);
    expect(res.statusCode).toBe(200);
    expectSvgHeaders(res.headers);
    expect(res.body).toBe(categoryIllustration(kind));
    expect(res.body).toContain('viewBox="0 0 400 300"');
  });
});

describe("SvgCache", () => {
  it("renders once per key and keeps at most `limit` entries, dropping the least recently used", () => {
    const cache = new SvgCache(3);
    let renders = 0;
    const render = (key: string) => cache.get(key, () => `<svg>${key}${++renders}</svg>`);
    expect(render("a")).toBe("<svg>a1</svg>");
    expect(render("a")).toBe("<svg>a1</svg>");
    expect(renders).toBe(1);
    render("b");
    render("c");
    render("a"); // refreshes "a", so "b" is now the oldest
    render("d");
    expect(cache.size).toBe(3);
    expect(renders).toBe(4);
    render("a");
    render("c");
    expect(renders).toBe(4);
    render("b");
    expect(renders).toBe(5);
    expect(cache.size).toBe(3);
  });

  it("stays bounded under many distinct labels through the route", async () => {
    const small = Fastify();
    await small.register(illustrationRoutes({ cacheSize: 5 }));
    for (let i = 0; i < 20; i++) {
      const res = await small.inject({ method: "GET", url: `/illustrations/keyboard/1.svg?label=k${i}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`<title>k${i}</title>`);
    }
    await small.close();
  });
});

describe("GET /illustrations/placeholder.svg", () => {
  it("serves the picture of a product saved without any (DEFAULT_PRODUCT_IMAGE)", async () => {
    const res = await get(DEFAULT_PRODUCT_IMAGE);
    expect(res.statusCode).toBe(200);
    expectSvgHeaders(res.headers);
    expect(res.body).toBe(placeholderIllustration());
    expect(res.body).toContain("<title>No image</title>");
  });
});

import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { builtWebApp } from "../../../test/builds";
import { products } from "../../db/schema";

/**
 * The storefront's pages as the server renders them hold nothing their Content-Security-Policy would refuse:
 * no style attribute (the policy has no 'unsafe-inline' for styles, and a refused one would leave the page
 * laid out wrong after hydration), no style element without the reply's nonce, no inline script but the
 * hashed ones. What the browser then adds as it runs is e2e/content-security.spec.ts's.
 */

let t: TestContext;
const window = new Window();
beforeAll(async () => {
  t = await createTestApp({ env: { WEB_DIST: await builtWebApp() } });
}, 180_000);
afterAll(async () => {
  await window.happyDOM.close();
  await t?.close();
});

const directive = (csp: string, name: string) =>
  csp
    .split(";")
    .find((part) => part.startsWith(`${name} `))
    ?.split(" ")
    .slice(1) ?? [];

describe("a server-rendered page", () => {
  it.each([
    ["the home page", "/", 200],
    ["the listing", "/products?offset=1", 200],
    ["a category's listing", "/products?categoryId=1&offset=1", 200],
    ["a product page with its reviews' stars", "/product/11", 200],
    ["the about page", "/profiles", 200],
    ["the login page", "/login", 200],
    ["a page the browser draws", "/admin", 200],
    ["the not-found page", "/no-such-page", 404],
  ])("%s: nothing the policy refuses", async (_name, url, status) => {
    const reply = await t.app.inject({ url });
    expect(reply.statusCode).toBe(status);
    const csp = String(reply.headers["content-security-policy"]);
    const document = new window.DOMParser().parseFromString(reply.body, "text/html");
    const all = (selector: string) => Array.from(document.querySelectorAll(selector));

    expect(all("[style]").map((element) => element.outerHTML.slice(0, 120))).toEqual([]);
    const nonce = document.querySelector('meta[property="csp-nonce"]')?.getAttribute("nonce");
    expect(directive(csp, "style-src")).toContain(`'nonce-${nonce}'`);
    for (const style of all("style")) expect(style.getAttribute("nonce")).toBe(nonce);
    // Data (boot data, JSON-LD) is never run; scripts are those without a type or modules.
    const scripts = all("script:not([src])").filter((script) =>
      ["", "module"].includes(script.getAttribute("type") ?? ""),
    );
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const hash = createHash("sha256").update(script.textContent).digest("base64");
      expect(directive(csp, "script-src")).toContain(`'sha256-${hash}'`);
    }
  });

  it("draws a rating's stars filled to the tenth with classes", async () => {
    // Three reviews of 5, 4 and 2 stars: 3.7 on average, the fourth star 70% filled.
    await t.database.db.update(products).set({ ratingSum: 11, ratingCount: 3 }).where(eq(products.id, 13));
    const reply = await t.app.inject({ url: "/product/13" });
    const document = new window.DOMParser().parseFromString(reply.body, "text/html");
    const ratings = Array.from(document.querySelectorAll('main [role="img"][aria-label*="out of 5"]'));
    expect(ratings.map((rating) => rating.getAttribute("aria-label"))).toEqual(["3.7 out of 5 stars"]);
    for (const rating of ratings) {
      const average = Number(/^([\d.]+) out of/.exec(rating.getAttribute("aria-label")!)?.[1]);
      const fills = Array.from(rating.querySelectorAll(":scope > span > span")).map(
        (fill) => /w-(?:\[(\d+)%\]|(full))/.exec(fill.className)?.slice(1).find(Boolean) ?? "?",
      );
      const expected = [1, 2, 3, 4, 5]
        .map((star) => Math.round(Math.max(0, Math.min(1, average - star + 1)) * 10) * 10)
        .filter((percent) => percent > 0)
        .map((percent) => (percent === 100 ? "full" : String(percent)));
      expect(fills, rating.getAttribute("aria-label")!).toEqual(expected);
    }
  });
});

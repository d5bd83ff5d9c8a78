import { randomBytes } from "node:crypto";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ADMIN_CHUNKS_FILE,
  budgetProblems,
  JS_BUDGET_KB,
  htmlScripts,
  routeScripts,
  weighBuild,
  type Manifest,
} from "./web-weight";

/**
 * A small build as Rolldown writes it: the entry merged into the shared "app" chunk (so no chunk is flagged
 * isEntry), lazy pages that share a tile, a dialog loaded on first use, and the back office.
 */
const manifest: Manifest = {
  "_rolldown-runtime.js": { file: "assets/rolldown-runtime.js" },
  "_react.js": { file: "assets/react.js", imports: ["_rolldown-runtime.js"] },
  "_app.js": {
    file: "assets/app.js",
    imports: ["_rolldown-runtime.js", "_react.js"],
    dynamicImports: [
      "src/features/catalog/HomePage.tsx",
      "src/features/product/ProductPage.tsx",
      "src/features/admin/AdminApp.tsx",
    ],
  },
  "_app.css": { file: "assets/app.css" },
  "_ProductTile.js": { file: "assets/ProductTile.js", imports: ["_app.js", "_Stars.js"] },
  "_Stars.js": { file: "assets/Stars.js", imports: ["_app.js"] },
  "_Field.js": { file: "assets/Field.js", imports: ["_app.js"] },
  "src/features/catalog/HomePage.tsx": {
    file: "assets/HomePage.js",
    src: "src/features/catalog/HomePage.tsx",
    isDynamicEntry: true,
    imports: ["_app.js", "_ProductTile.js"],
  },
  "src/features/product/ProductPage.tsx": {
    file: "assets/ProductPage.js",
    src: "src/features/product/ProductPage.tsx",
    isDynamicEntry: true,
    imports: ["_app.js", "_ProductTile.js"],
    dynamicImports: ["src/components/ConfirmDialog.tsx"],
  },
  "src/components/ConfirmDialog.tsx": {
    file: "assets/ConfirmDialog.js",
    src: "src/components/ConfirmDialog.tsx",
    isDynamicEntry: true,
    imports: ["_app.js"],
  },
  "src/features/admin/AdminApp.tsx": {
    file: "assets/AdminApp.js",
    src: "src/features/admin/AdminApp.tsx",
    isDynamicEntry: true,
    imports: ["_app.js", "_Field.js", "_Stars.js"],
  },
};

const html = `<!doctype html><html><head>
  <link rel="modulepreload" crossorigin href="/assets/rolldown-runtime.js">
  <link rel="modulepreload" crossorigin href="/assets/react.js">
  <link rel="modulepreload" crossorigin href="/assets/app.js">
  <link rel="stylesheet" crossorigin href="/assets/app.css">
  <script type="module">await import("/assets/rolldown-runtime.js"); await import("/assets/app.js");</script>
</head><body><div id="root"></div></body></html>`;

describe("htmlScripts", () => {
  it("lists the scripts index.html loads, once each, without its stylesheet", () => {
    expect(htmlScripts(html)).toEqual(["/assets/rolldown-runtime.js", "/assets/react.js", "/assets/app.js"]);
  });
});

describe("routeScripts", () => {
  it("is the entry's scripts plus the page chunk and its static imports, transitively", () => {
    expect(routeScripts(manifest, html, "src/features/catalog/HomePage.tsx").sort()).toEqual([
      "/assets/HomePage.js",
      "/assets/ProductTile.js",
      "/assets/Stars.js",
      "/assets/app.js",
      "/assets/react.js",
      "/assets/rolldown-runtime.js",
    ]);
  });

  it("leaves out what a page loads only on first use (its dynamic imports)", () => {
    const scripts = routeScripts(manifest, html, "src/features/product/ProductPage.tsx");
    expect(scripts).toContain("/assets/ProductPage.js");
    expect(scripts).not.toContain("/assets/ConfirmDialog.js");
  });

  it("adds the chunks of the texts the router loads with the page (app/page-texts.ts)", () => {
    const withLogin: Manifest = {
      ...manifest,
      "src/features/auth/LoginPage.tsx": {
        file: "assets/LoginPage.js",
        src: "src/features/auth/LoginPage.tsx",
        isDynamicEntry: true,
        imports: ["_app.js"],
      },
      "src/i18n/account-en.ts": {
        file: "assets/account-en.js",
        src: "src/i18n/account-en.ts",
        isDynamicEntry: true,
      },
    };
    expect(routeScripts(withLogin, html, "src/features/auth/LoginPage.tsx")).toContain(
      "/assets/account-en.js",
    );
    expect(routeScripts(withLogin, html, "src/features/catalog/HomePage.tsx")).not.toContain(
      "/assets/account-en.js",
    );
    // The texts' chunk missing from the build is refused like a missing page.
    delete withLogin["src/i18n/account-en.ts"];
    expect(() => routeScripts(withLogin, html, "src/features/auth/LoginPage.tsx")).toThrow(/account-en/);
  });

  it("refuses a page that is not a chunk of the build", () => {
    expect(() => routeScripts(manifest, html, "src/features/cart/CartPage.tsx")).toThrow(/not a chunk/);
  });
});

describe("weighBuild and budgetProblems", () => {
  const dist = mkdtempSync(join(tmpdir(), "voltio-weight-"));
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it("weighs each storefront route in gzipped KB and names the routes over budget or loading admin code", () => {
    // The real route list needs every storefront page: each is a tiny chunk here, the product page a big one.
    const pages = [
      "src/features/catalog/HomePage.tsx",
      "src/features/catalog/ProductListPage.tsx",
      "src/features/product/ProductPage.tsx",
      "src/features/cart/CartPage.tsx",
      "src/features/cart/WishlistPage.tsx",
      "src/features/auth/LoginPage.tsx",
      "src/features/auth/ForgotPasswordPage.tsx",
      "src/features/auth/ResetPasswordPage.tsx",
      "src/features/account/ProfilePage.tsx",
      "src/features/account/EmailLinkPage.tsx",
      "src/features/account/PurchasesPage.tsx",
      "src/features/account/OrderPage.tsx",
      "src/features/checkout/CheckoutPage.tsx",
      "src/features/checkout/PaymentResultPage.tsx",
      "src/features/about/AboutPage.tsx",
      "src/features/compare/ComparePage.tsx",
      "src/components/NotFoundPage.tsx",
    ];
    const built: Manifest = {
      "_app.js": { file: "assets/app.js" },
      "_Field.js": { file: "assets/Field.js" },
      "src/features/admin/AdminApp.tsx": {
        file: "assets/AdminApp.js",
        src: "src/features/admin/AdminApp.tsx",
        isDynamicEntry: true,
        imports: ["_Field.js"],
      },
    };
    for (const page of [
      ...pages,
      "src/i18n/account-en.ts",
      "src/i18n/security-en.ts",
      "src/i18n/shopping-en.ts",
      "src/i18n/catalogue-en.ts",
    ]) {
      const file = `assets/${page
        .split("/")
        .pop()!
        .replace(/\.tsx?$/, ".js")}`;
      built[page] = { file, src: page, isDynamicEntry: true, imports: ["_app.js"] };
    }
    // The login page wrongly imports a back-office chunk.
    built["src/features/auth/LoginPage.tsx"]!.imports!.push("_Field.js");
    mkdirSync(join(dist, ".vite"), { recursive: true });
    mkdirSync(join(dist, "assets"));
    writeFileSync(join(dist, ".vite/manifest.json"), JSON.stringify(built));
    writeFileSync(join(dist, ADMIN_CHUNKS_FILE), JSON.stringify(["assets/AdminApp.js", "assets/Field.js"]));
    writeFileSync(join(dist, "index.html"), `<script type="module" src="/assets/app.js"></script>`);
    for (const chunk of Object.values(built)) writeFileSync(join(dist, chunk.file), "export {};\n");
    // Random bytes don't compress: about 130 KB however gzip tries.
    writeFileSync(join(dist, "assets/ProductPage.js"), randomBytes(130 * 1024));

    const weights = weighBuild(dist);
    const product = weights.find((route) => route.path === "/product/:id")!;
    expect(product.scripts.map((script) => script.file).sort()).toEqual([
      "/assets/ProductPage.js",
      "/assets/app.js",
    ]);
    expect(product.kb).toBeGreaterThan(JS_BUDGET_KB);
    expect(weights.find((route) => route.path === "/")!.kb).toBeLessThan(1);
    expect(budgetProblems(weights)).toEqual([
      expect.stringMatching(new RegExp(`^/product/:id: \\d+\\.\\d KB > ${JS_BUDGET_KB} KB$`)),
      "/login loads admin code: /assets/Field.js",
    ]);
    expect(budgetProblems(weights, 200)).toEqual(["/login loads admin code: /assets/Field.js"]);
  });
});

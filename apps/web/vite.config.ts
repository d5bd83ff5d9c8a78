import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * The server sends each storefront page already rendered (src/entry-server.tsx). Its script is fetched at
 * once but run after the first paint: a phone shows the page, then makes it interactive, instead of
 * running ~100 KB of script before showing anything.
 */
function paintBeforeScript(): Plugin {
  return {
    name: "voltio:paint-before-script",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html) {
        const sources: string[] = [];
        // Vite's own modulepreload links are the entry's imports, dependencies first: starting them one by one
        // evaluates each in its own task rather than all of them in one long one.
        for (const [, href] of html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g))
          sources.push(href!);
        const preloaded = html.replace(
          /<script type="module" crossorigin src="([^"]+)"><\/script>/g,
          (_tag, src: string) => {
            sources.push(src);
            return `<link rel="modulepreload" crossorigin href="${src}">`;
          },
        );
        // The stylesheet holds the first paint back: asked for first, before the chunks the server preloads
        // at <!--head--> and the entry's, which would otherwise take the connections ahead of it.
        const stylesheets: string[] = [];
        const styledFirst = preloaded
          .replace(/\s*<link rel="stylesheet"[^>]*>/g, (tag) => (stylesheets.push(tag.trim()), ""))
          .replace("<!--head-->", () => `${stylesheets.join("")}\n    <!--head-->`);
        const imports = sources.map((src) => `await import(${JSON.stringify(src)});`).join(" ");
        // Started by the first paint's timing entry rather than a timer, with a timer only as a safety net.
        // A page with nothing rendered yet (not a storefront page) or a hidden tab starts at once.
        const loader =
          `<script type="module">let started = false;` +
          `const start = async () => { if (started) return; started = true; ${imports} };` +
          `if (!document.getElementById("root")?.firstChild || document.visibilityState !== "visible" ||` +
          ` !PerformanceObserver.supportedEntryTypes?.includes("paint")) start();` +
          `else { new PerformanceObserver(start).observe({ type: "paint", buffered: true }); setTimeout(start, 3000); }` +
          `</script>`;
        return styledFirst.replace("</head>", () => `${loader}\n  </head>`);
      },
    },
  };
}

/**
 * sonner writes its stylesheet into a style element of its own when it loads, which the Content-Security-Policy
 * (no inline styles without the page's nonce) refuses: its module loads the same rules from the stylesheet it
 * ships instead, a file of ours like any other.
 */
function sonnerStylesheet(): Plugin {
  return {
    name: "voltio:sonner-stylesheet",
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      const injection = /^__insertCSS\(".*"\);$/m;
      if (!injection.test(code))
        this.error("sonner no longer injects its styles with __insertCSS(): look again");
      return { code: `import "./styles.css";\n${code.replace(injection, "")}`, map: null };
    },
  };
}

/**
 * dist/.vite/admin-chunks.json: the chunks that hold back-office code. The manifest doesn't say which modules
 * a shared chunk holds; the storefront's budget check (scripts/web-budget.ts) needs it to keep the admin out.
 */
function listAdminChunks(): Plugin {
  return {
    name: "voltio:list-admin-chunks",
    apply: (_config, { isSsrBuild }) => !isSsrBuild,
    generateBundle(_options, bundle) {
      const admin = Object.values(bundle)
        .filter((chunk) => chunk.type === "chunk")
        .filter((chunk) => chunk.moduleIds.some((id) => id.includes("/src/features/admin/")))
        .map((chunk) => chunk.fileName)
        .sort();
      this.emitFile({ type: "asset", fileName: ".vite/admin-chunks.json", source: JSON.stringify(admin) });
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), sonnerStylesheet(), paintBeforeScript(), listAdminChunks()],
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  build: {
    target: isSsrBuild ? "node20" : "es2022",
    // No inline polyfill script: the Content-Security-Policy allows only our own scripts.
    modulePreload: { polyfill: false },
    sourcemap: false,
    // dist/.vite/manifest.json: the server preloads each page's chunks, bench:web checks for admin chunks.
    manifest: !isSsrBuild,
    // The server build (entry-server.tsx) is code for the server only: no public files, no browser chunking.
    copyPublicDir: !isSsrBuild,
    rolldownOptions: isSsrBuild
      ? {
          // It imports every page eagerly on purpose: the browser's lazy imports of them stay lazy there.
          checks: { ineffectiveDynamicImport: false },
        }
      : {
          output: {
            // Everything the first page needs in one chunk: many small shared chunks cost a round trip each
            // on a slow phone connection (six at a time over HTTP/1.1).
            // React itself is a chunk of its own, so that evaluating it is a task of its own.
            codeSplitting: {
              groups: [
                { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
                { name: "app", tags: ["$initial"], priority: 1 },
              ],
            },
          },
        },
  },
  server: {
    proxy: {
      "/api": "http://localhost:3000",
      "/illustrations": "http://localhost:3000",
      "/uploads": "http://localhost:3000",
    },
  },
}));

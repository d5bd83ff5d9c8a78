import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  build: {
    target: "es2022",
    // No inline polyfill script: the Content-Security-Policy allows only our own scripts.
    modulePreload: { polyfill: false },
    sourcemap: false,
    // dist/.vite/manifest.json: the server preloads each page's chunks, bench:web checks for admin chunks.
    manifest: true,
  },
  server: {
    proxy: {
      "/api": "http://localhost:3000",
      "/illustrations": "http://localhost:3000",
      "/uploads": "http://localhost:3000",
    },
  },
});

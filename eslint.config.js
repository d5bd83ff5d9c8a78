import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { readdirSync } from "node:fs";
import importX from "eslint-plugin-import-x";

const web = "apps/web/src";
const features = readdirSync(`${import.meta.dirname}/${web}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const server = "apps/server/src";
/**
 * The server's areas from the top down: each may import the ones listed after it, never one before it. Feature
 * modules come first; below them what they share: users (accounts and their erasure), the catalogue,
 * identity (who is calling), audit, inventory, then the integrations with the outside world, the worker loop
 * and metrics. app.ts, main.ts, http/, db/ and config sit around them and are not ordered here.
 */
const SERVER_LAYERS = [
  "modules/web",
  "modules/admin-catalog",
  "modules/catalog-structure",
  "modules/stock-alerts",
  "modules/orders",
  "modules/payments",
  "modules/newsletter",
  "modules/reviews",
  "modules/networks",
  "modules/stats",
  "modules/health",
  "modules/users",
  "modules/uploads",
  "modules/catalog",
  "modules/illustrations",
  "modules/auth",
  "modules/audit",
  "modules/inventory",
  "modules/identity",
  "integrations/mail",
  "integrations/payments",
  "workers",
  "modules/metrics",
];
// A new module must take its place in the order, or nothing would keep it from importing upward.
for (const folder of ["modules", "integrations"])
  for (const entry of readdirSync(`${import.meta.dirname}/${server}/${folder}`, { withFileTypes: true }))
    if (entry.isDirectory() && !SERVER_LAYERS.includes(`${folder}/${entry.name}`))
      throw new Error(`eslint.config.js: put ${server}/${folder}/${entry.name} in SERVER_LAYERS`);
const serverZones = SERVER_LAYERS.slice(1).map((layer, index) => ({
  target: `${server}/${layer}`,
  from: SERVER_LAYERS.slice(0, index + 1).map((above) => `${server}/${above}`),
  message: `Server areas import downward only (SERVER_LAYERS in eslint.config.js): ${layer} sits below these. Move what both need down.`,
}));

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/dist-ssr/**",
      "apps/web/parallel/**",
      "data/**",
      "reports/**",
      "test-results/**",
      "apps/server/src/db/migrations/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["apps/web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Zones of the code (docs/ARCHITECTURE.md). Checked on resolved paths, so "@/…", "../…" and "./…" are alike.
    plugins: { "import-x": importX },
    settings: {
      // The rules follow imports into .ts/.tsx files only when these name them (import-x's TypeScript preset).
      "import-x/extensions": importX.flatConfigs.typescript.settings["import-x/extensions"],
      "import-x/parsers": importX.flatConfigs.typescript.settings["import-x/parsers"],
      // Resolver versions without native bindings: the newer ones need platform packages that not every
      // registry mirror serves, which breaks `npm ci`.
      "import-x/resolver": {
        typescript: {
          project: [
            "apps/web/tsconfig.json",
            "apps/server/tsconfig.json",
            "packages/domain/tsconfig.json",
            "e2e/tsconfig.json",
            "bench/tsconfig.json",
          ],
          // The five projects are separate on purpose (each its own lib and types); one resolver serves them all.
          noWarnOnMultipleProjects: true,
        },
      },
    },
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: [
            ...features.map((feature) => ({
              target: `${web}/features/${feature}`,
              from: `${web}/features`,
              except: [`./${feature}`],
              message:
                "Features must not import each other; move shared code to components/ or packages/domain.",
            })),
            {
              target: `${web}/features`,
              from: `${web}/app`,
              message:
                "Features must not import app/, which imports them; move what they need to components/ or api/.",
            },
            {
              target: `${web}/components`,
              from: [`${web}/features`, `${web}/app`],
              message: "components/ is shared by every screen: it must not depend on features/ or app/.",
            },
            {
              target: [`${web}/api`, `${web}/i18n`],
              from: [`${web}/features`, `${web}/components`, `${web}/app`],
              message:
                "api/ and i18n/ sit below the screens: they must not import features/, components/ or app/.",
            },
            {
              target: "packages/domain",
              from: "apps",
              message:
                "packages/domain is shared by the server and the web app: it imports nothing from apps/.",
            },
            ...serverZones,
          ],
        },
      ],
    },
  },
  {
    // Type-only imports are skipped by the rule: they leave no cycle at run time.
    files: ["**/*.{ts,tsx}"],
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
);

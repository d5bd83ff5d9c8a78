import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium";

const port = Number(process.env.E2E_PORT ?? 3100);
/** Its own folder per E2E_DATA_DIR (fixtures.ts reads the same variable): two runs on one machine never share one. */
const dataDir = process.env.E2E_DATA_DIR ?? "data/e2e";
export const baseURL = `http://localhost:${port}`;

/**
 * The real server on its own fresh embedded database (never the developer's ./data), driven by the system
 * Chromium: browsers are never downloaded. Two workers share that server: a journey that changes data
 * makes its own (fixtures.ts: newShopper) or runs serially (test.describe.configure({ mode: "serial" })).
 */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // A bound for a journey that hangs, not a speed check: two workers, the server and two browsers share two
  // cores, and a journey that takes 10 s alone may take 30 s then.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "../reports/playwright.json" }]],
  outputDir: "../test-results",
  // The back office's journeys change what every shopper sees (a new category, sales on products, prices):
  // they run once the storefront's journeys are done, so no storefront check meets an admin's change.
  projects: [
    { name: "storefront", testIgnore: /admin-.*\.spec\.ts/ },
    { name: "admin", testMatch: /admin-.*\.spec\.ts/, dependencies: ["storefront"] },
  ],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: `rm -rf ${dataDir} && node --import tsx apps/server/src/main.ts`,
    cwd: "..",
    url: `${baseURL}/api/store`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DEMO: "true",
      CATALOG_CACHE_TTL_SECONDS: "0",
      // Every journey logs in from 127.0.0.1: the limits themselves are proven by the server's tests.
      RATE_LIMIT_AUTH_PER_IP: "10000",
      RATE_LIMIT_AUTH_PER_EMAIL: "10000",
    },
  },
});

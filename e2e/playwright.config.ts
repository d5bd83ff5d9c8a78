import { randomBytes } from "node:crypto";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium";

const port = Number(process.env.E2E_PORT ?? 3100);
/** Its own folder per E2E_DATA_DIR (fixtures.ts reads the same variable): two runs on one machine never share one. */
const dataDir = process.env.E2E_DATA_DIR ?? "data/e2e";
export const baseURL = `http://localhost:${port}`;

/**
 * With TEST_DATABASE_URL (CI sets it) the journeys run on PostgreSQL: a fresh database of this run's own on
 * that server, created before the server starts and dropped once it has stopped (e2e/database.ts). Its name
 * and the server's signing secret are chosen once, in the runner's process: the workers inherit them
 * (fixtures.ts signs a token with the secret).
 */
const postgres = process.env.TEST_DATABASE_URL;
if (postgres) {
  process.env.E2E_DATABASE ??= `voltio_e2e_${process.pid}_${randomBytes(3).toString("hex")}`;
  process.env.E2E_JWT_SECRET ??= randomBytes(32).toString("base64url");
}
const databaseUrl = (name: string) => {
  const url = new URL(postgres!);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * The README's `npm start` check (npm-start.spec.ts) runs on the embedded database, as `npm start` does: on
 * the main server when that is PGlite, else on a second server of its own (its own port and DATA_DIR).
 */
const npmStartPort = Number(process.env.E2E_NPM_START_PORT ?? port + 1);
const npmStartURL = postgres ? `http://localhost:${npmStartPort}` : baseURL;

/**
 * The real server, as `npm run serve` runs it (the build of `npm run build`), on its own fresh database (never the developer's ./data), driven by the system Chromium:
 * browsers are never downloaded. Two workers share that server: a journey that changes data makes its own
 * (fixtures.ts: newShopper, newProduct, uniqueName) or runs serially (test.describe.configure({ mode:
 * "serial" })).
 */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // A bound for a journey that hangs, not a speed check: two workers, the server and two browsers share two
  // cores, and a journey that takes 10 s alone may take 30 s then. No journey raises it: a longer one is split,
  // its preconditions made through the API.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "../reports/playwright.json" }]],
  outputDir: "../test-results",
  // The back office's journeys run beside the storefront's: they change only data of their own (products and
  // categories with unique names, their own shoppers), never the demo data the storefront's journeys read.
  projects: [
    { name: "storefront", testIgnore: [/admin-.*\.spec\.ts/, /npm-start\.spec\.ts/] },
    { name: "admin", testMatch: /admin-.*\.spec\.ts/ },
    { name: "npm-start", testMatch: /npm-start\.spec\.ts/, use: { baseURL: npmStartURL } },
  ],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: [
    {
      command: postgres
        ? `rm -rf ${dataDir} && node --import tsx e2e/database.ts create ${process.env.E2E_DATABASE} && node --enable-source-maps apps/server/dist/main.js`
        : `rm -rf ${dataDir} && node --enable-source-maps apps/server/dist/main.js`,
      cwd: "..",
      url: `${baseURL}/api/store`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        PORT: String(port),
        // The mail it writes and the pictures uploaded to it, and on PGlite its database.
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        DEMO: "true",
        // Cheap password hashes: every journey registers or logs in (production's cost is refused outside tests).
        NODE_ENV: "test",
        PASSWORD_HASH_COST: "10",
        CATALOG_CACHE_TTL_SECONDS: "0",
        // Every journey logs in from 127.0.0.1: the limits themselves are proven by the server's tests.
        RATE_LIMIT_AUTH_PER_IP: "10000",
        RATE_LIMIT_AUTH_PER_EMAIL: "10000",
        // A loaded CI machine lags the server's event loop: load shedding is proven by the server's tests.
        MAX_EVENT_LOOP_DELAY_MS: "0",
        ...(postgres
          ? { DATABASE_URL: databaseUrl(process.env.E2E_DATABASE!), JWT_SECRET: process.env.E2E_JWT_SECRET! }
          : {}),
      },
    },
    ...(postgres
      ? [
          {
            command: `rm -rf ${dataDir}-npm-start && node --enable-source-maps apps/server/dist/main.js`,
            cwd: "..",
            url: `${npmStartURL}/api/store`,
            timeout: 120_000,
            reuseExistingServer: false,
            stdout: "pipe" as const,
            // As `npm start` runs it: the embedded database, in demo mode by default.
            env: { LOG_LEVEL: "warn", PORT: String(npmStartPort), DATA_DIR: `${dataDir}-npm-start` },
          },
        ]
      : []),
  ],
});

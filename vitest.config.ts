import { existsSync } from "node:fs";
import { defineConfig } from "vitest/config";

/**
 * Which database each server test file runs on. With TEST_DATABASE_URL (as .ci/run sets it) a file runs on
 * PostgreSQL unless it is listed as PGLITE_ONLY, and also on PGlite when it is listed in either list; without
 * it everything runs on PGlite. So no file can drop out of both: a new file runs on PostgreSQL by default.
 */
const server = (path: string) => `apps/server/${path}`;

/** Where the two databases differ: locks, concurrency, LISTEN/NOTIFY, migrations, backups, holds, settlement, limits, processes. */
const ON_BOTH = [
  "src/cluster.test.ts",
  "src/db/changes.test.ts",
  "src/db/backup/backup.test.ts",
  "src/db/migrate.test.ts",
  "src/db/variants-migration.test.ts",
  "src/integrations/mail/outbox.test.ts",
  "src/integrations/payments/sandbox.test.ts",
  "src/integrations/payments/sandbox-webhook.test.ts",
  "src/integrations/payments/stripe.test.ts",
  "src/integrations/payments/mercadopago.test.ts",
  "src/modules/auth/rate-limit.test.ts",
  "src/modules/auth/shared-limits.test.ts",
  "src/modules/catalog/cache.test.ts",
  "src/modules/catalog/hold-expiry.test.ts",
  "src/modules/payments/money.test.ts",
  "src/modules/payments/money.model.test.ts",
  "src/modules/orders/variants.test.ts",
  "src/modules/payments/refund-mail.test.ts",
  "src/modules/payments/routes.test.ts",
  "src/modules/payments/worker.test.ts",
  "src/modules/stock-alerts/routes.test.ts",
  // One route file of every other module, so each module's queries run on the embedded database too.
  "src/modules/admin-catalog/sales.test.ts",
  "src/modules/audit/routes.test.ts",
  "src/modules/catalog/categories.test.ts",
  "src/modules/health/routes.test.ts",
  "src/modules/metrics/routes.test.ts",
  "src/modules/networks/routes.test.ts",
  "src/modules/newsletter/routes.test.ts",
  "src/modules/orders/back-to-cart.test.ts",
  "src/modules/reviews/routes.test.ts",
  "src/modules/stats/routes.test.ts",
  "src/modules/uploads/routes.test.ts",
  "src/modules/users/customer.test.ts",
  "src/modules/web/seo.test.ts",
].map(server);

/** Only the embedded database has these: the server's start-up on it and its data directory's lock. */
const PGLITE_ONLY = ["src/startup.test.ts", "src/db/data-dir-lock.test.ts"].map(server);

for (const file of [...ON_BOTH, ...PGLITE_ONLY])
  if (!existsSync(new URL(file, import.meta.url)))
    throw new Error(`vitest.config.ts lists ${file}: no such test file`);

const ALL_SERVER_FILES = [server("src/**/*.test.ts")];
const onPostgresToo = Boolean(process.env.TEST_DATABASE_URL);

const serverProject = (database: "pglite" | "postgres") => ({
  extends: true as const,
  test: {
    name: `server-${database}`,
    include:
      database === "postgres"
        ? // The cluster behind a load balancer needs PostgreSQL (and haproxy).
          [...ALL_SERVER_FILES, server("test/cluster/*.test.ts")]
        : onPostgresToo
          ? [...ON_BOTH, ...PGLITE_ONLY]
          : ALL_SERVER_FILES,
    exclude: database === "postgres" ? PGLITE_ONLY : [],
    environment: "node",
    globalSetup: [
      database === "pglite" ? server("test/global-setup.ts") : server("test/global-setup-postgres.ts"),
    ],
    env: { TEST_DB: database },
    // A worker imports the server's modules once for all its files, not once per file: that import was 2.5 s
    // of a file's CPU under CI's load (180 s of the PostgreSQL suite). Every file builds its own app, database
    // and config; the one module-wide setting, the password hash cost, is set again by each app it builds.
    isolate: false,
    // Bounds for a hang, not speed checks: on a loaded 2-core machine a file that spawns servers takes minutes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  resolve: { alias: { "@": new URL("./apps/web/src", import.meta.url).pathname } },
  test: {
    // `npm test` runs the projects as separate processes, each naming its own report (--outputFile.json).
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
    projects: [
      {
        extends: true,
        test: { name: "domain", include: ["packages/domain/src/**/*.test.ts"], environment: "node" },
      },
      // The build checks of scripts/ (the storefront's weight budget).
      { extends: true, test: { name: "scripts", include: ["scripts/**/*.test.ts"], environment: "node" } },
      serverProject("pglite"),
      ...(onPostgresToo ? [serverProject("postgres")] : []),
      {
        extends: true,
        test: {
          name: "web",
          include: ["apps/web/src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["apps/web/src/test/setup.ts"],
          // A bound for a hang: waits on a condition last up to 10 s (test/setup.ts).
          testTimeout: 30_000,
        },
      },
    ],
  },
});

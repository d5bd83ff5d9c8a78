import { defineConfig } from "vitest/config";

/**
 * One runner for every suite. The server suite runs on PGlite always, and once more on PostgreSQL when
 * TEST_DATABASE_URL points at a server (as .ci/run does).
 */
const serverProject = (database: "pglite" | "postgres") => ({
  extends: true as const,
  test: {
    name: `server-${database}`,
    // The cluster behind a load balancer needs PostgreSQL (and haproxy): it runs with the PostgreSQL suite.
    include: [
      "apps/server/src/**/*.test.ts",
      ...(database === "postgres" ? ["apps/server/test/cluster/*.test.ts"] : []),
    ],
    // Start-up and the embedded database's lock run real server processes on PGlite: once is enough.
    exclude:
      database === "postgres"
        ? ["apps/server/src/startup.test.ts", "apps/server/src/db/data-dir-lock.test.ts"]
        : [],
    environment: "node",
    globalSetup: database === "pglite" ? ["apps/server/test/global-setup.ts"] : [],
    env: { TEST_DB: database },
    testTimeout: 30_000,
    hookTimeout: 60_000,
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
      ...(process.env.TEST_DATABASE_URL ? [serverProject("postgres")] : []),
      {
        extends: true,
        test: {
          name: "web",
          include: ["apps/web/src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["apps/web/src/test/setup.ts"],
        },
      },
    ],
  },
});

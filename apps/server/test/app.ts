import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type App } from "../src/app";
import { loadConfig, type Config } from "../src/config";
import type { Database } from "../src/db/client";
import { startSession } from "../src/modules/auth/sessions";
import { createTestDatabase, TEST_PASSWORD_HASH_COST } from "./database";

export interface TestContext {
  app: App;
  database: Database;
  config: Config;
  /**
   * A bearer header for a user id (1 is the demo admin, 2 the demo shopper), from a real session of its own:
   * access tokens only work while their session lives.
   */
  bearer(userId: number): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

/**
 * The clock that decides which sales run today, unless a test sets its own: a Wednesday, when none of the demo
 * store's day sales run. With the real clock every total a test works out by hand came out 10% off on Fridays
 * (the demo's "Everything is 10% off on Fridays!").
 */
const A_WEDNESDAY = () => new Date("2026-11-25T15:00:00Z");

/** The real app on a real database of its own; nothing of ours is mocked. */
export async function createTestApp(
  options: {
    contents?: "empty" | "demo";
    env?: Record<string, string>;
    now?: () => Date;
    /** Run the app's own mail worker; tests usually deliver with a worker of their own and runOnce(). */
    mailWorker?: boolean;
    /** The sandbox notifies the app's webhook at PUBLIC_URL (tests that listen on a port). */
    sandboxNotifications?: boolean;
    sandboxRetryDelaysMs?: readonly number[];
  } = {},
): Promise<TestContext> {
  const database = await createTestDatabase(options.contents ?? "demo");
  // On PostgreSQL the app LISTENs for changes as the server does (it needs the address for its own connection).
  const loaded = loadConfig({
    LOG_LEVEL: "silent",
    NODE_ENV: "test",
    PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST),
    DATA_DIR: mkdtempSync(join(tmpdir(), "voltio-test-")),
    JWT_SECRET: "test-secret-that-is-long-enough-for-hs256-signing",
    WEB_DIST: join(tmpdir(), "voltio-no-web-build"),
    // Every request of a test file comes from one IP: only the rate-limit tests ask for small limits.
    RATE_LIMIT_AUTH_PER_IP: "100000",
    RATE_LIMIT_AUTH_PER_EMAIL: "100000",
    // A loaded test machine lags the event loop of every test process: only the load-shedding tests shed.
    MAX_EVENT_LOOP_DELAY_MS: "0",
    ...options.env,
  });
  const config = { ...loaded, databaseUrl: database.url };
  const app = await buildApp(config, database.db, {
    now: options.now ?? A_WEDNESDAY,
    mailWorker: options.mailWorker,
    sandboxNotifications: options.sandboxNotifications,
    sandboxRetryDelaysMs: options.sandboxRetryDelaysMs,
  });
  return {
    app,
    database,
    config,
    bearer: async (userId) => ({
      authorization: `Bearer ${(await startSession(database.db, config, userId)).accessToken}`,
    }),
    async close() {
      await app.close();
      await database.close();
    },
  };
}

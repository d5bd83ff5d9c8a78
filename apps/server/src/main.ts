import type { App } from "./app";
import { loadConfig } from "./config";
import { databaseTarget } from "./db/target";
import { exitWithStartupFailure, listenFailure, StartupError } from "./startup";

/** `npm start`: configuration, migrations, the demo seed on first start, then the HTTP server. */
async function main() {
  const config = loadConfig();
  // Loaded once the configuration is known to be good: a refusal comes without waiting for the whole app.
  const [{ buildApp }, { openDatabase }, { DEMO_LOGINS, seedDemoStore }, { countStatsInTimeZone }] =
    await Promise.all([
      import("./app"),
      import("./db/client"),
      import("./db/seed/demo-store"),
      import("./modules/stats/service"),
    ]);
  // Embedded: the data directory stays locked to this process until it ends.
  const database = await openDatabase(databaseTarget(config));
  let app: App | undefined;
  try {
    try {
      await database.migrate();
    } catch (error) {
      throw new StartupError(
        `Migrating the database failed: ${(error as Error).message}. Restore the database from a backup or fix it by hand, then start again.`,
      );
    }
    // The dashboard's days are the store's: a new STORE_TIMEZONE recounts them.
    try {
      if (await countStatsInTimeZone(database.db, config.storeTimeZone))
        console.log(`Recounted the order statistics by days of ${config.storeTimeZone}.`);
    } catch (error) {
      throw new StartupError(
        `STORE_TIMEZONE=${config.storeTimeZone}: the database can't count days in this time zone (${(error as Error).message}). Use a zone name PostgreSQL knows, e.g. America/Argentina/Buenos_Aires.`,
      );
    }
    if (config.demo) {
      const seeded = await seedDemoStore(database.db);
      if (seeded) console.log("Seeded the demo store.");
    }
    app = await buildApp(config, database.db, { mailWorker: true });
    await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      throw listenFailure(error, config.port, config.host);
    });
  } catch (error) {
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }

  const running = app;
  const shutdown = async (signal: string) => {
    running.log.info(`${signal}: shutting down`);
    running.startDraining();
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainSeconds * 1000));
    await running.close();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  const where = config.databaseUrl ? "PostgreSQL" : `the embedded database in ${config.dataDir}`;
  console.log(`\nVoltio is running at ${config.publicUrl} on ${where}.`);
  if (config.demo) {
    console.log("Demo logins:");
    console.log(`  admin    ${DEMO_LOGINS.admin.email} / ${DEMO_LOGINS.admin.password}`);
    console.log(`  shopper  ${DEMO_LOGINS.shopper.email} / ${DEMO_LOGINS.shopper.password}`);
  }
}

main().catch(exitWithStartupFailure);

import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { openDatabase } from "./db/client";
import { DEMO_LOGINS, seedDemoStore } from "./db/seed/demo-store";
import { databaseTarget } from "./db/target";

/** `npm start`: configuration, migrations, the demo seed on first start, then the HTTP server. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(databaseTarget(config));
  await database.migrate();
  if (config.demo) {
    const seeded = await seedDemoStore(database.db);
    if (seeded) console.log("Seeded the demo store.");
  }
  const app = await buildApp(config, database.db);
  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? "PostgreSQL" : `the embedded database in ${config.dataDir}`;
  console.log(`\nVoltio is running at ${config.publicUrl} on ${where}.`);
  if (config.demo) {
    console.log("Demo logins:");
    console.log(`  admin    ${DEMO_LOGINS.admin.email} / ${DEMO_LOGINS.admin.password}`);
    console.log(`  shopper  ${DEMO_LOGINS.shopper.email} / ${DEMO_LOGINS.shopper.password}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

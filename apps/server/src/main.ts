import cluster from "node:cluster";
import type { App } from "./app";
import { loadConfig } from "./config";
import { setPasswordHashCost } from "./modules/auth/password";
import { databaseTarget } from "./db/target";
import { reportUnhandledRejections } from "./process-faults";
import { exitWithStartupFailure, listenFailure, StartupError } from "./startup";

/** `npm start`: configuration, migrations, the demo seed on first start, then the HTTP server. */
async function main() {
  reportUnhandledRejections();
  const config = loadConfig();
  if (config.webConcurrency > 1 && cluster.isPrimary) return supervise(config.webConcurrency);
  // React picks its build by NODE_ENV when the app first loads it: unset, every page would be rendered by
  // the development build, at about twice the CPU per page (bench:pages). `npm run dev` asks for it.
  process.env.NODE_ENV ||= "production";
  // Loaded once the configuration is known to be good: a refusal comes without waiting for the whole app.
  const [{ buildApp }, { openDatabase }, { DEMO_LOGINS, seedDemoStore }, { countStatsInTimeZone }] =
    await Promise.all([
      import("./app"),
      import("./db/client"),
      import("./db/seed/demo-store"),
      import("./modules/stats/service"),
    ]);
  // Embedded: `npm run backup` asks this process for a copy of its database (answered from before the lock).
  const backups = config.databaseUrl
    ? undefined
    : (await import("./db/backup/embedded")).answerBackupRequests(config.dataDir);
  // Embedded: the data directory stays locked to this process until it ends.
  const database = await openDatabase(databaseTarget(config));
  backups?.serve(database.db);
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
      setPasswordHashCost(config.passwordHashCost);
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
  reportUnhandledRejections(app.log);
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

  // One banner for the whole cluster: the first server process prints it.
  if (cluster.isWorker && cluster.worker?.id !== 1) return;
  const where = config.databaseUrl ? "PostgreSQL" : `the embedded database in ${config.dataDir}`;
  const processes = config.webConcurrency > 1 ? ` in ${config.webConcurrency} processes` : "";
  console.log(`\nVoltio is running at ${config.publicUrl} on ${where}${processes}.`);
  if (config.demo) {
    console.log("Demo logins:");
    console.log(`  admin    ${DEMO_LOGINS.admin.email} / ${DEMO_LOGINS.admin.password}`);
    console.log(`  shopper  ${DEMO_LOGINS.shopper.email} / ${DEMO_LOGINS.shopper.password}`);
  }
}

/**
 * WEB_CONCURRENCY=N: N server processes on one port (node:cluster), each a whole server
 * on the shared PostgreSQL database. The first one prepares the database (migrations, demo seed) and the
 * others start once it listens; one that dies is started again; SIGTERM goes to every one, which drain.
 */
function supervise(count: number) {
  let stopping = false;
  let started = false;
  const first = cluster.fork();
  first.once("listening", () => {
    started = true;
    for (let i = 1; i < count; i++) cluster.fork();
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // The first one couldn't start (a bad setting, PostgreSQL down): it said why; the others would too.
    if (!started) process.exit(typeof code === "number" && code !== 0 ? code : 1);
    console.error(
      `Server process ${worker.process.pid} ended (${signal ?? `exit code ${code}`}); starting another.`,
    );
    cluster.fork();
  });
  const shutdown = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch(exitWithStartupFailure);

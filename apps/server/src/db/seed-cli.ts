import { loadConfig } from "../config";
import { setPasswordHashCost } from "../modules/auth/password";
import { exitWithStartupFailure } from "../startup";
import { openDatabase } from "./client";
import { seedDemoStore } from "./seed/demo-store";
import { databaseTarget } from "./target";

/**
 * `npm run seed`: migrate, then seed the demo store into an empty database (never twice). On the embedded
 * database it takes the data directory's lock: it refuses to run beside a server on the same DATA_DIR.
 */
async function seed() {
  const config = loadConfig();
  setPasswordHashCost(config.passwordHashCost);
  const database = await openDatabase(databaseTarget(config));
  try {
    await database.migrate();
    const seeded = await seedDemoStore(database.db);
    console.log(seeded ? "Demo store seeded." : "The store already has data: nothing seeded.");
  } finally {
    await database.close();
  }
}

await seed().catch(exitWithStartupFailure);

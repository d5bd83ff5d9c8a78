import { mkdirSync, writeFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { openDatabase } from "../src/db/client";
import { seedDemoStore } from "../src/db/seed/demo-store";
import { pgliteSnapshotPath } from "./database";

/**
 * A fresh PGlite runs initdb (5–7 s). Build the migrated and the seeded database once per run and let every
 * test file start from a copy of the snapshot (under a second).
 */
export default async function setup() {
  mkdirSync(pgliteSnapshotPath("empty").replace(/[^/]+$/, ""), { recursive: true });
  const pglite = await PGlite.create({ extensions: { pg_trgm } });
  const database = await openDatabase({ pglite });
  await database.migrate();
  await snapshot(pglite, "empty");
  await seedDemoStore(database.db);
  await snapshot(pglite, "demo");
  await database.close();
}

async function snapshot(pglite: PGlite, name: "empty" | "demo") {
  const dump = await pglite.dumpDataDir("none");
  writeFileSync(pgliteSnapshotPath(name), Buffer.from(await dump.arrayBuffer()));
}

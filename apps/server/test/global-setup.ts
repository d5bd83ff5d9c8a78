import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/client";
import { seedDemoStore } from "../src/db/seed/demo-store";
import { setPasswordHashCost } from "../src/modules/auth/password";
import {
  dropWhenFree,
  pgliteSnapshotPath,
  preparedDatabaseHash,
  postgresTemplateName,
  postgresUrlOf,
  TEST_PASSWORD_HASH_COST,
  withPostgresAdmin,
  type Contents,
} from "./database";

/**
 * A fresh PGlite runs initdb (5–7 s) and migrating and seeding PostgreSQL takes 10–20 s: the databases every
 * test file starts from are made once, named by what they depend on (database.ts: preparedDatabaseHash), and
 * kept for later runs until a migration or the seed changes. Each test file copies one in under a second.
 */
export default async function setup(project: TestProject) {
  project.provide("preparedDatabaseHash", preparedDatabaseHash());
  await preparePgliteSnapshots();
}

export async function preparePgliteSnapshots() {
  if (existsSync(pgliteSnapshotPath("empty")) && existsSync(pgliteSnapshotPath("demo"))) return;
  mkdirSync(dirname(pgliteSnapshotPath("empty")), { recursive: true });
  setPasswordHashCost(TEST_PASSWORD_HASH_COST);
  const pglite = await PGlite.create({ extensions: { pg_trgm } });
  const database = await openDatabase({ pglite });
  await database.migrate();
  await snapshot(pglite, "empty");
  await seedDemoStore(database.db);
  await snapshot(pglite, "demo");
  await database.close();
}

async function snapshot(pglite: PGlite, name: Contents) {
  const dump = await pglite.dumpDataDir("none");
  // Written aside and renamed: a run that stops half-way leaves no half snapshot to be taken for whole.
  const draft = `${pgliteSnapshotPath(name)}.${process.pid}.tmp`;
  writeFileSync(draft, Buffer.from(await dump.arrayBuffer()));
  renameSync(draft, pgliteSnapshotPath(name));
}

/**
 * The PostgreSQL templates, each built under a draft name and renamed when complete: a run killed half-way
 * leaves only a draft, removed by the next. Templates of older migrations or seeds are dropped.
 */
export async function preparePostgresTemplates() {
  const wanted = (["empty", "demo"] as const).map(postgresTemplateName);
  const existing = await withPostgresAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      "select datname from pg_database where datname like 'voltio\\_template\\_%'",
    );
    for (const { datname } of rows) if (!wanted.includes(datname)) await dropWhenFree(admin, datname);
    return rows.map((row) => row.datname);
  });
  if (wanted.every((name) => existing.includes(name))) return;

  setPasswordHashCost(TEST_PASSWORD_HASH_COST);
  const draft = `voltio_template_draft_${process.pid}`;
  await withPostgresAdmin((admin) => admin.query(`create database ${draft}`));
  const database = await openDatabase({ url: postgresUrlOf(draft) });
  await database.migrate();
  await database.close();
  // The empty template is a copy of the migrated draft, which is then seeded and renamed to the demo one.
  await withPostgresAdmin(async (admin) => {
    await dropWhenFree(admin, postgresTemplateName("empty"));
    await admin.query(`create database ${postgresTemplateName("empty")} template ${draft}`);
  });
  const seeding = await openDatabase({ url: postgresUrlOf(draft) });
  await seedDemoStore(seeding.db);
  await seeding.close();
  await withPostgresAdmin(async (admin) => {
    await dropWhenFree(admin, postgresTemplateName("demo"));
    await admin.query(`alter database ${draft} rename to ${postgresTemplateName("demo")}`);
  });
}

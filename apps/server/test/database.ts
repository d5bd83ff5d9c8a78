import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { openDatabase, type Database } from "../src/db/client";
import { seedDemoStore } from "../src/db/seed/demo-store";

export const pgliteSnapshotPath = (name: "empty" | "demo") =>
  join(import.meta.dirname, "../../../node_modules/.cache/voltio-test", `pglite-${name}.tar`);

export const testDatabaseKind = (): "pglite" | "postgres" =>
  process.env.TEST_DB === "postgres" ? "postgres" : "pglite";

/**
 * A private, migrated database for one test file: a copy of the PGlite snapshot, or a new database on the
 * PostgreSQL server of TEST_DATABASE_URL, dropped again on close.
 */
export async function createTestDatabase(contents: "empty" | "demo" = "demo"): Promise<Database> {
  if (testDatabaseKind() === "pglite") {
    const blob = new Blob([readFileSync(pgliteSnapshotPath(contents))]);
    const pglite = await PGlite.create({ loadDataDir: blob, extensions: { pg_trgm } });
    return openDatabase({ pglite });
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  const name = `voltio_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  await database.migrate();
  if (contents === "demo") await seedDemoStore(database.db);
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await dropWhenFree(cleanup, name);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/**
 * `with (force)` ends our own sessions, but an autovacuum worker that has just started on the database
 * belongs to the superuser and can't be ended by the test role ("must be a member of the role whose process
 * is being terminated"): it finishes within moments on a test database, so the drop waits and tries again.
 */
async function dropWhenFree(client: pg.Client, name: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`drop database if exists ${name} with (force)`);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      // 42501: a backend we may not end; 55006: the database is still in use.
      if (attempt >= 50 || (code !== "42501" && code !== "55006")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

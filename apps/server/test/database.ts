import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { openDatabase, type Database } from "../src/db/client";

/** log2 of scrypt's N in the test harnesses: production's 2^15 took seconds a hash on a loaded machine. */
export const TEST_PASSWORD_HASH_COST = 10;

export type Contents = "empty" | "demo";

const dbFolder = join(import.meta.dirname, "../src/db");

declare module "vitest" {
  export interface ProvidedContext {
    preparedDatabaseHash: string;
  }
}

/**
 * What a prepared database depends on: the migrations, the seed and the password cost of its demo logins.
 * Prepared databases are named by it, so a change to any of them prepares new ones and an old run's are
 * never taken for new. Test files take the one their run's global set-up prepared, even when a source
 * changed since (a developer editing while the tests run).
 */
export function preparedDatabaseHash(): string {
  return (preparedHash ??= vitestWorker?.inject("preparedDatabaseHash") ?? hashOfSources());
}
let preparedHash: string | undefined;
// Only a test worker has what the global set-up provided (it, the fuzz CLI and the benchmarks don't).
const vitestWorker = process.env.VITEST_WORKER_ID ? await import("vitest") : undefined;

function hashOfSources(): string {
  const hash = createHash("sha256").update(`password cost ${TEST_PASSWORD_HASH_COST}\n`);
  const add = (path: string) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) add(join(path, name));
    else if (!path.endsWith(".test.ts")) hash.update(path.slice(dbFolder.length)).update(readFileSync(path));
  };
  for (const part of ["migrations", "seed", "schema.ts"]) add(join(dbFolder, part));
  return hash.digest("hex").slice(0, 12);
}

export const pgliteSnapshotPath = (name: Contents) =>
  join(
    import.meta.dirname,
    "../../../node_modules/.cache/voltio-test",
    `pglite-${name}-${preparedDatabaseHash()}.tar`,
  );

/** The PostgreSQL database each test database of these contents is copied from (global-setup-postgres.ts). */
export const postgresTemplateName = (name: Contents) => `voltio_template_${preparedDatabaseHash()}_${name}`;

export const testDatabaseKind = (): "pglite" | "postgres" =>
  process.env.TEST_DB === "postgres" ? "postgres" : "pglite";

export function postgresServerUrl(): string {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  return serverUrl;
}

/** TEST_DATABASE_URL with another database name. */
export function postgresUrlOf(name: string): string {
  const url = new URL(postgresServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` with a connection to the server's maintenance database of TEST_DATABASE_URL. */
export async function withPostgresAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresServerUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A private, migrated database for one test file: a copy of the PGlite snapshot, or on the PostgreSQL server
 * of TEST_DATABASE_URL a database copied from the run's template (CREATE DATABASE … TEMPLATE, under a second
 * where migrating and seeding took 10–20 s), dropped again on close.
 */
export async function createTestDatabase(contents: Contents = "demo"): Promise<Database> {
  if (testDatabaseKind() === "pglite") {
    const blob = new Blob([readFileSync(pgliteSnapshotPath(contents))]);
    const pglite = await PGlite.create({ loadDataDir: blob, extensions: { pg_trgm } });
    return openDatabase({ pglite });
  }
  const name = `voltio_test_${randomBytes(6).toString("hex")}`;
  await withPostgresAdmin((admin) =>
    admin.query(`create database ${name} template ${postgresTemplateName(contents)}`),
  );
  const database = await openDatabase({ url: postgresUrlOf(name) });
  return {
    ...database,
    async close() {
      await database.close();
      await withPostgresAdmin((admin) => dropWhenFree(admin, name));
    },
  };
}

/**
 * `with (force)` ends our own sessions, but an autovacuum worker that has just started on the database
 * belongs to the superuser and can't be ended by the test role ("must be a member of the role whose process
 * is being terminated"): it finishes within moments on a test database, so the drop waits and tries again.
 */
export async function dropWhenFree(client: pg.Client, name: string) {
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

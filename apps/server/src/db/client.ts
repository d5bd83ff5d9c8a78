import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { serverDir } from "../paths";
import { StartupError } from "../startup";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock";
import * as relations from "./relations";
import * as tables from "./schema";

export const schema = { ...tables, ...relations };
export type Schema = typeof schema;
/** One type for both drivers: the code above this line never knows which database it talks to. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** PostgreSQL's address (for the LISTEN connection of change notifications). */
  url?: string;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = join(serverDir, "src/db/migrations");

/** How many migrations this build ships: a database that applied fewer isn't ready for it. */
export const shippedMigrations = (): number =>
  (JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, "utf8")) as { entries: unknown[] })
    .entries.length;

/** The advisory lock every process takes to migrate: processes started together never migrate twice. */
const MIGRATION_LOCK = 7_217_001;

/** `dataDir` is locked to this process while open; `pglite` is an instance the caller already owns. */
export type DatabaseTarget = { url: string; poolSize?: number } | { dataDir: string } | { pglite: PGlite };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if ("url" in target) {
    await checkReachable(target.url);
    // A request waits at most 30 s for a connection (a new one, or a turn in the pool's queue): with PostgreSQL
    // unreachable it gets 503 (http/error-handler) rather than hanging until the client gives up.
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      connectionTimeoutMillis: 30_000,
    });
    // A connection PostgreSQL drops while idle is replaced by the pool; unheard, the event would end the process.
    pool.on("error", (error) => console.error(`PostgreSQL closed an idle connection: ${error.message}`));
    // A lent connection that PostgreSQL ends between two statements (a transaction waiting on our code) reports
    // it as an 'error' event, which pg-pool hears only while the connection is idle: unheard, it would end the
    // process. The next statement on it fails, and its request gets 503 (http/error-handler).
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      url: target.url,
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
          // Whoever waited finds the migrations applied by the first, and applies nothing.
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  let lock: DataDirLock | undefined;
  if ("pglite" in target) {
    client = target.pglite;
  } else {
    // PGlite creates only the last segment of its data directory.
    mkdirSync(target.dataDir, { recursive: true });
    lock = await acquireDataDirLock(target.dataDir);
    try {
      client = await PGlite.create({ dataDir: target.dataDir, extensions: { pg_trgm } });
    } catch (error) {
      lock.release();
      throw new StartupError(
        `The embedded database in ${target.dataDir} can't be opened (${(error as Error).message}): it is damaged or not a PGlite database. Restore DATA_DIR ${dirname(target.dataDir)} from a backup, or move ${target.dataDir} away to start with an empty store.`,
      );
    }
  }
  const db = drizzlePglite(client, { schema });
  // One process owns the embedded database: its migrations only need to take turns within it.
  let migrating: Promise<void> = Promise.resolve();
  return {
    db: db as unknown as Db,
    kind: "pglite",
    migrate: () =>
      (migrating = migrating.catch(() => {}).then(() => migratePglite(db, { migrationsFolder }))),
    async close() {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/** Fails with one line naming what is wrong with DATABASE_URL before the pool starts handing out errors. */
async function checkReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => {}); // reported by connect() below
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    throw new StartupError(
      `Can't connect to PostgreSQL at DATABASE_URL ${redacted(url)}: ${connectionProblem(error)}. Start PostgreSQL or correct DATABASE_URL.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

function connectionProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const errors = (error as { errors?: { code?: string }[] }).errors;
  switch (code ?? errors?.[0]?.code) {
    case "ECONNREFUSED":
      return "connection refused (nothing listens at that address and port)";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host name does not resolve";
    case "ETIMEDOUT":
      return "no answer (a firewall, or the wrong address)";
    case "28P01":
      return "the password is wrong";
    case "28000":
      return `access denied (${message})`;
    case "3D000":
      return `the database does not exist (${message})`;
    default:
      return message || String(error);
  }
}

function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable)";
  }
}

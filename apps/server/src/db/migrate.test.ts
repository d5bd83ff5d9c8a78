import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dropWhenFree, postgresUrlOf, testDatabaseKind, withPostgresAdmin } from "../../test/database";
import { openDatabase, shippedMigrations, type Database } from "./client";

const appliedCount = async ({ db }: Database) =>
  Number(
    (
      (await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as {
        rows: { n: number }[];
      }
    ).rows[0]!.n,
  );

const onPostgres = testDatabaseKind() === "postgres";

describe("migrations", () => {
  // One process per embedded database: its two starts can only come one after the other.
  it.skipIf(onPostgres)("are applied once when the embedded database is migrated twice at once", async () => {
    const database = await openDatabase({ pglite: await PGlite.create({ extensions: { pg_trgm } }) });
    await Promise.all([database.migrate(), database.migrate()]);
    expect(await appliedCount(database)).toBe(shippedMigrations());
    await database.close();
  });

  it.runIf(onPostgres)(
    "are applied once when two processes start together (an advisory lock)",
    async () => {
      const name = `voltio_migrate_${randomBytes(6).toString("hex")}`;
      await withPostgresAdmin((admin) => admin.query(`create database ${name}`));
      const processes = [
        await openDatabase({ url: postgresUrlOf(name) }),
        await openDatabase({ url: postgresUrlOf(name) }),
      ];
      try {
        await Promise.all(processes.map((database) => database.migrate()));
        expect(await appliedCount(processes[0]!)).toBe(shippedMigrations());
      } finally {
        await Promise.all(processes.map((database) => database.close()));
        await withPostgresAdmin((admin) => dropWhenFree(admin, name));
      }
    },
    60_000,
  );
});

import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import type { Db } from "./client";

/**
 * A statement sent straight to the driver, under a name when given: PostgreSQL then parses and plans it once
 * per connection (PGlite, one connection in this process, just runs it). For the few hot read paths whose SQL is built once
 * per shape (the catalogue listing): drizzle would build the query and map every row again on each request,
 * which was a tenth of the server's time under load (docs/benchmarks.md). Values only ever go as parameters.
 */
export type RawQuery = <Row>(
  name: string | undefined,
  text: string,
  values: readonly unknown[],
) => Promise<Row[]>;

/** The raw query of `db`, which must be the database itself, not a transaction (that has no client of its own). */
export function rawQuery(db: Db): RawQuery {
  const client = (db as unknown as { $client?: pg.Pool | PGlite }).$client;
  if (!client) throw new Error("rawQuery needs the database, not a transaction");
  if ("totalCount" in client) {
    const pool = client;
    return async <Row>(name: string | undefined, text: string, values: readonly unknown[]) =>
      (await pool.query({ name, text, values: [...values] })).rows as Row[];
  }
  const lite = client;
  return async <Row>(_name: string | undefined, text: string, values: readonly unknown[]) =>
    (await lite.query<Row>(text, [...values])).rows;
}

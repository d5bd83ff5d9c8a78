import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import type { Db } from "./client";

/**
 * A statement sent straight to the driver, under a name when given: PostgreSQL then parses and plans it once
 * per connection (PGlite, one connection in this process, just runs it). For the few hot read paths whose SQL is built once
 * per shape (the catalogue listing): drizzle would build the query and map every row again on each request,
 * which was a tenth of the server's time under load (docs/benchmark-notes.md). Values only ever go as parameters.
 */
export interface RawQuery {
  <Row>(name: string | undefined, text: string, values: readonly unknown[]): Promise<Row[]>;
  /**
   * The same, each row as its values in the select list's order: the driver builds no object per row (pg
   * copies a template object for each one), which is a tenth of an uncached listing's time in the driver.
   */
  arrays<Values extends unknown[]>(
    name: string | undefined,
    text: string,
    values: readonly unknown[],
  ): Promise<Values[]>;
}

/** One RawQuery per driver client: the hot paths ask for it on every request, and closures cost to make. */
const rawQueries = new WeakMap<object, RawQuery>();

/** The raw query of `db`, which must be the database itself, not a transaction (that has no client of its own). */
export function rawQuery(db: Db): RawQuery {
  const client = (db as unknown as { $client?: pg.Pool | PGlite }).$client;
  if (!client) throw new Error("rawQuery needs the database, not a transaction");
  let run = rawQueries.get(client);
  if (!run) {
    run = "totalCount" in client ? poolQuery(client) : liteQuery(client);
    rawQueries.set(client, run);
  }
  return run;
}

function poolQuery(pool: pg.Pool): RawQuery {
  return Object.assign(
    <Row>(name: string | undefined, text: string, values: readonly unknown[]) =>
      pool.query({ name, text, values: [...values] }).then((result) => result.rows as Row[]),
    {
      arrays: <Values extends unknown[]>(
        name: string | undefined,
        text: string,
        values: readonly unknown[],
      ) =>
        pool
          .query({ name, text, values: [...values], rowMode: "array" })
          .then((result) => result.rows as Values[]),
    },
  );
}

function liteQuery(lite: PGlite): RawQuery {
  return Object.assign(
    <Row>(_name: string | undefined, text: string, values: readonly unknown[]) =>
      lite.query<Row>(text, [...values]).then((result) => result.rows),
    {
      arrays: <Values extends unknown[]>(
        _name: string | undefined,
        text: string,
        values: readonly unknown[],
      ) => lite.query<Values>(text, [...values], { rowMode: "array" }).then((result) => result.rows),
    },
  );
}

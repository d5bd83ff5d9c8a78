import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../../test/database";
import type { Database } from "../../../db/client";
import { rawQuery } from "../../../db/raw";
import { indexCatalogue } from "./build";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase("demo");
  // A deleted product inside a batch: it is skipped, and the next batch still starts after the last one read.
  await database.db.execute(sql`update products set deleted_at = now() where id = 8`);
});
afterAll(() => database.close());

describe("building the search index", () => {
  it("reads the catalogue a batch at a time into the same index as in one statement", async () => {
    const run = rawQuery(database.db);
    const whole = await indexCatalogue(run, { readBatch: 1_000 });
    expect(whole.built.ids).toHaveLength(58);
    expect(whole.built.ids).not.toContain(8);
    for (const readBatch of [1, 7, 29, 58]) {
      const batched = await indexCatalogue(run, { readBatch });
      expect(batched.built, `batches of ${readBatch}`).toEqual(whole.built);
      expect(batched.products).toEqual(whole.products);
    }
  });

  it("grows its buffer of words as it reads, whatever it starts with", async () => {
    const run = rawQuery(database.db);
    const roomy = await indexCatalogue(run);
    for (const pairsStart of [1, 2, 7])
      expect((await indexCatalogue(run, { pairsStart, readBatch: 5 })).built).toEqual(roomy.built);
  });
});

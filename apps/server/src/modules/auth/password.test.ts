import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { TEST_PASSWORD_HASH_COST } from "../../../test/database";
import {
  hashesWaiting,
  hashIsWeak,
  hashPassword,
  PRODUCTION_PASSWORD_HASH_COST,
  setPasswordHashCost,
  verifyPassword,
} from "./password";

const environment = (env: Record<string, string>) => ({
  DATA_DIR: mkdtempSync(join(tmpdir(), "voltio-password-")),
  ...env,
});

describe("password hashing cost", () => {
  // The cost is the module's: other files of the same worker set the tests' cheap one, and get it back.
  beforeEach(() => setPasswordHashCost(PRODUCTION_PASSWORD_HASH_COST));
  afterAll(() => setPasswordHashCost(TEST_PASSWORD_HASH_COST));

  it("is OWASP's scrypt minimum: N=2^17, r=8, p=1", async () => {
    const hash = await hashPassword("Correct horse 1!");
    expect(hash.split("$").slice(0, 4)).toEqual(["scrypt", String(2 ** 17), "8", "1"]);
    expect(await verifyPassword("Correct horse 1!", hash)).toBe(true);
  });

  it("keeps its parameters in each hash, so hashes of either cost verify after the cost changed", async () => {
    setPasswordHashCost(10);
    const cheap = await hashPassword("Correct horse 1!");
    setPasswordHashCost(15);
    const older = await hashPassword("Correct horse 1!");
    expect(cheap.split("$").slice(0, 4)).toEqual(["scrypt", String(2 ** 10), "8", "1"]);
    expect(older.split("$").slice(0, 4)).toEqual(["scrypt", String(2 ** 15), "8", "1"]);
    setPasswordHashCost(10);
    expect(await verifyPassword("Correct horse 1!", older)).toBe(true);
    expect(await verifyPassword("Correct horse 1?", older)).toBe(false);
    setPasswordHashCost(PRODUCTION_PASSWORD_HASH_COST);
    expect(await verifyPassword("Correct horse 1!", cheap)).toBe(true);
    expect(await verifyPassword("Correct horse 1?", cheap)).toBe(false);
  });

  it("calls a hash weak when it was made at less than today's cost", async () => {
    setPasswordHashCost(10);
    const cheap = await hashPassword("Correct horse 1!");
    expect(hashIsWeak(cheap)).toBe(false);
    setPasswordHashCost(11);
    expect(hashIsWeak(cheap)).toBe(true);
    expect(hashIsWeak(await hashPassword("Correct horse 1!"))).toBe(false);
    // A hash of another scheme (a deleted account's "deleted") is nothing to redo.
    expect(hashIsWeak("deleted")).toBe(false);
    expect(await verifyPassword("deleted", "deleted")).toBe(false);
  });

  // Ten logins at once would hold 1.25 GiB: the others wait their turn.
  it("runs at most two production hashes at once (256 MiB), whatever arrives together", async () => {
    const hashes = Array.from({ length: 4 }, (_, i) => hashPassword(`Correct horse ${i}!`));
    expect(hashesWaiting()).toBe(2);
    const done = await Promise.all(hashes);
    expect(hashesWaiting()).toBe(0);
    expect(new Set(done).size).toBe(4);
    // Cheaper hashes share the same memory: 32 at 2^13 (8 MiB each) run together.
    setPasswordHashCost(13);
    const cheap = Array.from({ length: 40 }, (_, i) => hashPassword(`Correct horse ${i}!`));
    expect(hashesWaiting()).toBe(8);
    await Promise.all(cheap);
  });

  it("is production's unless set, and a cost under it is refused outside tests with one line", () => {
    expect(loadConfig(environment({})).passwordHashCost).toBe(PRODUCTION_PASSWORD_HASH_COST);
    expect(PRODUCTION_PASSWORD_HASH_COST).toBe(17);
    expect(loadConfig(environment({ PASSWORD_HASH_COST: "10", NODE_ENV: "test" })).passwordHashCost).toBe(10);
    expect(loadConfig(environment({ PASSWORD_HASH_COST: "18" })).passwordHashCost).toBe(18);
    for (const NODE_ENV of [undefined, "production", "development"]) {
      for (const low of ["10", "16"]) {
        const env = environment({ PASSWORD_HASH_COST: low, ...(NODE_ENV ? { NODE_ENV } : {}) });
        expect(() => loadConfig(env)).toThrow(
          new RegExp(
            `^Invalid configuration: PASSWORD_HASH_COST=${low} is for tests only \\(NODE_ENV=test\\)\\. Unset it, or set 17 to 18\\.$`,
          ),
        );
      }
    }
    expect(() => loadConfig(environment({ PASSWORD_HASH_COST: "9", NODE_ENV: "test" }))).toThrow(
      /PASSWORD_HASH_COST="9" must be a whole number from 10 to 18/,
    );
    expect(() => loadConfig(environment({ PASSWORD_HASH_COST: "19" }))).toThrow(
      /PASSWORD_HASH_COST="19" must be a whole number from 10 to 18/,
    );
  });
});

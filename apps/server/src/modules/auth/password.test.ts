import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { hashPassword, PRODUCTION_PASSWORD_HASH_COST, setPasswordHashCost, verifyPassword } from "./password";

const environment = (env: Record<string, string>) => ({
  DATA_DIR: mkdtempSync(join(tmpdir(), "voltio-password-")),
  ...env,
});

describe("password hashing cost", () => {
  afterEach(() => setPasswordHashCost(PRODUCTION_PASSWORD_HASH_COST));

  it("keeps its parameters in each hash, so hashes of either cost verify after the cost changed", async () => {
    setPasswordHashCost(10);
    const cheap = await hashPassword("Correct horse 1!");
    setPasswordHashCost(PRODUCTION_PASSWORD_HASH_COST);
    const dear = await hashPassword("Correct horse 1!");
    expect(cheap.split("$").slice(0, 4)).toEqual(["scrypt", String(2 ** 10), "8", "1"]);
    expect(dear.split("$").slice(0, 4)).toEqual(["scrypt", String(2 ** 15), "8", "1"]);
    setPasswordHashCost(10);
    expect(await verifyPassword("Correct horse 1!", dear)).toBe(true);
    expect(await verifyPassword("Correct horse 1?", dear)).toBe(false);
    setPasswordHashCost(PRODUCTION_PASSWORD_HASH_COST);
    expect(await verifyPassword("Correct horse 1!", cheap)).toBe(true);
    expect(await verifyPassword("Correct horse 1?", cheap)).toBe(false);
  });

  it("is production's unless set, and a cost under it is refused outside tests with one line", () => {
    expect(loadConfig(environment({})).passwordHashCost).toBe(PRODUCTION_PASSWORD_HASH_COST);
    expect(loadConfig(environment({ PASSWORD_HASH_COST: "10", NODE_ENV: "test" })).passwordHashCost).toBe(10);
    expect(loadConfig(environment({ PASSWORD_HASH_COST: "16" })).passwordHashCost).toBe(16);
    for (const NODE_ENV of [undefined, "production", "development"]) {
      const env = environment({ PASSWORD_HASH_COST: "10", ...(NODE_ENV ? { NODE_ENV } : {}) });
      expect(() => loadConfig(env)).toThrow(
        /^Invalid configuration: PASSWORD_HASH_COST=10 is for tests only \(NODE_ENV=test\)\. Unset it, or set 15 to 17\.$/,
      );
    }
    expect(() => loadConfig(environment({ PASSWORD_HASH_COST: "9", NODE_ENV: "test" }))).toThrow(
      /PASSWORD_HASH_COST="9" must be a whole number from 10 to 17/,
    );
  });
});

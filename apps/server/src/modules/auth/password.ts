import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

const scrypt = (password: string, salt: Buffer, length: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/** log2 of scrypt's N for new hashes: the least production accepts (about 50–100 ms and 32 MiB a hash here). */
export const PRODUCTION_PASSWORD_HASH_COST = 15;

/**
 * Cost parameters travel with each hash, so they can be raised later without breaking old logins, and a hash
 * made at a test's cheap cost verifies as well as one made at production's. PASSWORD_HASH_COST sets it at
 * start (config.ts refuses a lower one outside tests).
 */
let cost = { N: 2 ** PRODUCTION_PASSWORD_HASH_COST, r: 8, p: 1 };
const KEY_LENGTH = 64;

/** New hashes cost 2^log2N scrypt work from now on (main.ts, the CLIs and buildApp call it with the config's). */
export function setPasswordHashCost(log2N: number) {
  if (cost.N === 2 ** log2N) return;
  cost = { ...cost, N: 2 ** log2N };
  dummyHash = undefined;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { ...cost, maxmem: 256 * 1024 * 1024 });
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !expected) return false;
  const expectedKey = Buffer.from(expected, "base64url");
  const key = await scrypt(password, Buffer.from(salt, "base64url"), expectedKey.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 256 * 1024 * 1024,
  });
  return timingSafeEqual(key, expectedKey);
}

/** Verifying against this when the e-mail is unknown makes a missing account cost the same time. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}

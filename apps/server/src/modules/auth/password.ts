import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

const scrypt = (password: string, salt: Buffer, length: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/**
 * log2 of scrypt's N for new hashes: the least production accepts, OWASP's minimum for scrypt (N=2^17, r=8,
 * p=1; ASVS 2.4.3): 128 MiB and a few hundred milliseconds a hash here.
 */
export const PRODUCTION_PASSWORD_HASH_COST = 17;
/** The most PASSWORD_HASH_COST may ask for: 256 MiB a hash. */
export const MAX_PASSWORD_HASH_COST = 18;

interface Cost {
  N: number;
  r: number;
  p: number;
}

/**
 * Cost parameters travel with each hash, so they can be raised later without breaking old logins, and a hash
 * made at a test's cheap cost verifies as well as one made at production's. PASSWORD_HASH_COST sets it at
 * start (config.ts refuses a lower one outside tests).
 */
let cost: Cost = { N: 2 ** PRODUCTION_PASSWORD_HASH_COST, r: 8, p: 1 };
const KEY_LENGTH = 64;

/** scrypt's working memory: 128·N·r bytes, and a little more (maxmem below leaves room for it). */
const memoryOf = ({ N, r }: Cost) => 128 * N * r;

/**
 * Hashes run at once use at most this much memory (two at production's cost): ten logins at once queue
 * here instead of taking 1.3 GiB, and libuv's four threads keep room for file and DNS work.
 */
const HASH_MEMORY_BUDGET = 256 * 1024 * 1024;
let memoryInUse = 0;
const waiting: { memory: number; start: () => void }[] = [];

function startWaiting() {
  // First come, first served; one hash always runs, whatever it needs.
  while (waiting.length > 0) {
    const next = waiting[0]!;
    if (memoryInUse > 0 && memoryInUse + next.memory > HASH_MEMORY_BUDGET) return;
    waiting.shift();
    memoryInUse += next.memory;
    next.start();
  }
}

async function scryptInTurn(password: string, salt: Buffer, length: number, parameters: Cost) {
  const memory = memoryOf(parameters);
  await new Promise<void>((start) => {
    waiting.push({ memory, start });
    startWaiting();
  });
  try {
    return await scrypt(password, salt, length, { ...parameters, maxmem: memory + 1024 * 1024 });
  } finally {
    memoryInUse -= memory;
    startWaiting();
  }
}

/** How many hashes wait for their turn now (for tests). */
export const hashesWaiting = () => waiting.length;

/** New hashes cost 2^log2N scrypt work from now on (main.ts, the CLIs and buildApp call it with the config's). */
export function setPasswordHashCost(log2N: number) {
  if (cost.N === 2 ** log2N) return;
  cost = { ...cost, N: 2 ** log2N };
  dummyHash = undefined;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptInTurn(password, salt, KEY_LENGTH, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

function parse(stored: string) {
  const [scheme, n, r, p, salt, expected] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !expected) return undefined;
  const parameters = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(parameters).every((value) => Number.isSafeInteger(value) && value > 0)) return undefined;
  return { parameters, salt: Buffer.from(salt, "base64url"), expected: Buffer.from(expected, "base64url") };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const hash = parse(stored);
  if (!hash) return false;
  const key = await scryptInTurn(password, hash.salt, hash.expected.length, hash.parameters);
  return timingSafeEqual(key, hash.expected);
}

/** Whether a hash was made at less than today's cost, so the next successful login should redo it. */
export function hashIsWeak(stored: string): boolean {
  const hash = parse(stored);
  if (!hash) return false;
  const { N, r, p } = hash.parameters;
  return N < cost.N || r < cost.r || p < cost.p;
}

/**
 * Verifying against this when the e-mail is unknown makes a missing account cost the same time. Made at
 * today's cost, and made again when the cost changes.
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}

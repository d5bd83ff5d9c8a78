import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { StartupError } from "../startup";

/**
 * One process per embedded database. PGlite has no lock across processes: two servers on one data directory
 * hand out the same ids, lose acknowledged writes and corrupt indexes (STACK-NOTES).
 *
 * Every process that wants the database writes a claim named after itself into `<database>.lock/`, then
 * lists the claims. It holds the lock only if no other live claim is there; otherwise it withdraws its own.
 * Of two processes starting at the same instant, the later lister always sees the earlier claim, so both
 * can never win (at worst both step back, and they retry after a random pause). A claim is only ever removed
 * by its owner or once its owner is dead, so a process killed with SIGKILL leaves a claim the next one
 * takes over. A claim names the process by boot id, pid and start time: a reused pid is not the holder.
 */

interface Claim {
  pid: number;
  /** Clock ticks since boot at which the process started (Linux), or "" where that can't be read. */
  start: string;
  bootId: string;
  host: string;
  state: "pending" | "held";
  file: string;
}

interface ClaimDetails {
  command?: string;
  since?: string;
}

export interface DataDirLock {
  release(): void;
}

export class DataDirLockedError extends StartupError {}

const CLAIM = /^(\d+)-(\d*)-([0-9a-f-]*)@([A-Za-z0-9.-]+)\.(pending|held)$/;
const RETRIES = 20;

export async function acquireDataDirLock(databaseDir: string): Promise<DataDirLock> {
  const lockDir = `${databaseDir}.lock`;
  mkdirSync(lockDir, { recursive: true });
  const me = ownIdentity();
  const name = ownClaimName();
  const pending = join(lockDir, `${name}.pending`);
  const held = join(lockDir, `${name}.held`);
  const details: ClaimDetails = { command: commandName(), since: new Date().toISOString() };

  for (let attempt = 0; ; attempt++) {
    writeFileSync(pending, JSON.stringify(details), { flag: "wx" });
    const rivals = readClaims(lockDir).filter((claim) => claim.file !== basename(pending));
    const live: Claim[] = [];
    for (const claim of rivals) {
      if (isAlive(claim, me)) live.push(claim);
      else rmSync(join(lockDir, claim.file), { force: true });
    }
    if (live.length === 0) {
      renameSync(pending, held);
      const releaseOnExit = () => rmSync(held, { force: true });
      process.once("exit", releaseOnExit);
      return {
        release() {
          process.off("exit", releaseOnExit);
          rmSync(held, { force: true });
        },
      };
    }
    rmSync(pending, { force: true });
    const holder = live.find((claim) => claim.state === "held");
    if (holder || attempt === RETRIES) throw lockedError(databaseDir, lockDir, holder ?? live[0]!, me);
    // Only claims of processes starting right now: they may be stepping back too.
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 90));
  }
}

/** This process as the lock names it: `npm run backup` finds a holder that answers backup requests by it. */
export function ownClaimName(): string {
  const me = ownIdentity();
  return `${me.pid}-${me.start}-${me.bootId}@${me.host}`;
}

/** The live process on this machine holding the database's lock, if any. */
export function dataDirHolder(
  databaseDir: string,
): { pid: number; name: string; command?: string } | undefined {
  const lockDir = `${databaseDir}.lock`;
  if (!existsSync(lockDir)) return undefined;
  const me = ownIdentity();
  const holder = readClaims(lockDir).find((claim) => claim.state === "held" && isAlive(claim, me));
  if (!holder || holder.host !== me.host) return undefined;
  const { command } = claimDetails(lockDir, holder);
  return { pid: holder.pid, name: holder.file.replace(/\.held$/, ""), command };
}

function claimDetails(lockDir: string, claim: Claim): ClaimDetails {
  try {
    return JSON.parse(readFileSync(join(lockDir, claim.file), "utf8")) as ClaimDetails;
  } catch {
    return {}; // withdrawn meanwhile, or not written yet
  }
}

function readClaims(lockDir: string): Claim[] {
  const claims: Claim[] = [];
  for (const file of readdirSync(lockDir)) {
    const match = CLAIM.exec(file);
    if (!match) continue;
    claims.push({
      pid: Number(match[1]),
      start: match[2]!,
      bootId: match[3]!,
      host: match[4]!,
      state: match[5] as Claim["state"],
      file,
    });
  }
  return claims;
}

function isAlive(claim: Claim, me: Omit<Claim, "state" | "file">): boolean {
  // A process on another machine sharing the directory can't be checked: it holds until removed by hand.
  if (claim.host !== me.host) return true;
  if (claim.bootId && me.bootId && claim.bootId !== me.bootId) return false;
  try {
    process.kill(claim.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const stat = procStat(claim.pid);
  if (stat === undefined) return !me.bootId; // no /proc entry on Linux: gone
  if (stat.state === "Z" || stat.state === "X") return false;
  return !claim.start || stat.start === claim.start;
}

function ownIdentity(): Omit<Claim, "state" | "file"> {
  return {
    pid: process.pid,
    start: procStat(process.pid)?.start ?? "",
    bootId: readOptional("/proc/sys/kernel/random/boot_id").trim(),
    host: hostname().replace(/[^A-Za-z0-9.-]/g, "-") || "localhost",
  };
}

/** State and start time (field 22, clock ticks since boot) from /proc/<pid>/stat; undefined off Linux. */
function procStat(pid: number): { state: string; start: string } | undefined {
  const text = readOptional(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  if (!text || fields.length < 20) return undefined;
  return { state: fields[0]!, start: fields[19]! };
}

function readOptional(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function commandName(): string {
  const script = basename(process.argv[1] ?? "node");
  if (script.startsWith("seed-cli")) return "npm run seed";
  if (script.startsWith("create-admin-cli")) return "npm run create-admin";
  if (script.startsWith("backup-cli")) return "npm run backup";
  if (script.startsWith("restore-cli")) return "npm run restore";
  if (script.startsWith("main")) return "the Voltio server";
  return script;
}

function lockedError(databaseDir: string, lockDir: string, holder: Claim, me: { host: string }) {
  const details = claimDetails(lockDir, holder);
  const who = [
    details.command ?? "a Voltio process",
    `pid ${holder.pid}`,
    holder.host === me.host ? "" : `on host ${holder.host}`,
    details.since ? `since ${details.since}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  const fix =
    holder.host === me.host
      ? "Stop that process first, or give this one another DATA_DIR."
      : `Stop it first; if it is gone, delete ${join(lockDir, holder.file)}.`;
  return new DataDirLockedError(
    `DATA_DIR ${dirname(databaseDir)} is in use: its embedded database is open in ${who} (PGlite allows one process per database). ${fix}`,
  );
}

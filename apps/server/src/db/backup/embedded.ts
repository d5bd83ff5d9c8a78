import { randomBytes } from "node:crypto";
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { createGzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { Db } from "../client";
import { acquireDataDirLock, dataDirHolder, DataDirLockedError, ownClaimName } from "../data-dir-lock";
import { appliedMigrations, BackupError } from "./manifest";

/**
 * The embedded database belongs to one process (data-dir-lock.ts): while the server runs, only it can read a
 * consistent copy. `npm run backup` then asks it through files in DATA_DIR/backup-requests and SIGUSR2, a
 * channel open only to whoever may write DATA_DIR and signal the server (its own user, root): nothing of it
 * reaches the network. The server writes the copy into that folder only; the command moves it into the backup.
 */
export const backupRequestsDir = (dataDir: string) => join(dataDir, "backup-requests");
export const databaseDirOf = (dataDir: string) => join(dataDir, "pglite");

const REQUEST_ID = /^([0-9a-f]{32})\.request$/;
const LEFT_BEHIND = /^[0-9a-f]{32}\.(tar|answer|taking)(\.tmp)?$/;
/** A request is given up when the server hasn't answered within this long (a dump of a few GB takes a minute). */
const ANSWER_TIMEOUT_MS = 15 * 60_000;

export interface EmbeddedDump {
  /** The data directory as a gzipped tar (PGlite's dumpDataDir(), compressed outside the server's pause). */
  file: string;
  migrations: number;
}

/**
 * For the server, before it opens (and so locks) its database: from then on SIGUSR2 never ends it, and the
 * marker file tells `npm run backup` that this process answers (a server of an older release, which would
 * die of the signal, has none). Requests wait until serve() hands over the open database.
 */
export function answerBackupRequests(dataDir: string): { serve(db: Db): void } {
  const dir = backupRequestsDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const marker = join(dir, `${ownClaimName()}.answers`);
  writeFileSync(marker, "");
  process.once("exit", () => rmSync(marker, { force: true }));
  let pglite: PGlite | undefined;
  let answering: Promise<void> = Promise.resolve();
  const answerAll = () => {
    const client = pglite;
    if (!client) return;
    answering = answering
      .then(() => answerPending(dir, client))
      .catch((error: unknown) =>
        console.error(`Answering a backup request failed: ${(error as Error).message}`),
      );
  };
  process.on("SIGUSR2", answerAll);
  return {
    serve(db) {
      pglite = (db as unknown as { $client: PGlite }).$client;
      answerAll();
    },
  };
}

async function answerPending(dir: string, pglite: PGlite) {
  for (const name of readdirSync(dir)) {
    const id = REQUEST_ID.exec(name)?.[1];
    // Requests and copies of a command that was stopped, kept until it would have given up waiting.
    const modified =
      (id || LEFT_BEHIND.test(name)) && statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs;
    if (modified && modified < Date.now() - ANSWER_TIMEOUT_MS) {
      rmSync(join(dir, name), { force: true });
      continue;
    }
    if (!id) continue;
    const taking = join(dir, `${id}.taking`);
    try {
      renameSync(join(dir, name), taking);
    } catch {
      continue; // taken by an earlier signal's round, or withdrawn
    }
    let answer: object;
    try {
      const { dump, migrations } = await dumpDatabase(pglite);
      writeAside(join(dir, `${id}.tar`), dump);
      answer = { ok: true, migrations };
    } catch (error) {
      answer = { ok: false, error: (error as Error).message };
    }
    writeAside(join(dir, `${id}.answer`), JSON.stringify(answer));
    rmSync(taking, { force: true });
  }
}

/**
 * A copy of the whole data directory as of one moment. Inside a transaction of its own, which holds PGlite's
 * transaction lock: no other transaction is half-way while the files are read, and no query runs meanwhile.
 * Uncompressed: the pause is ~0.1 s for the demo store's 43 MB, where gzip here took over a second.
 */
async function dumpDatabase(pglite: PGlite): Promise<{ dump: Buffer; migrations: number }> {
  return pglite.transaction(async (tx) => {
    const migrations = await appliedMigrations(tx);
    const blob = await pglite.dumpDataDir("none");
    return { dump: Buffer.from(await blob.arrayBuffer()), migrations };
  });
}

/** Written under another name and renamed: a reader never sees half a file. */
function writeAside(file: string, contents: Buffer | string) {
  try {
    writeFileSync(`${file}.tmp`, contents, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  } catch (error) {
    rmSync(`${file}.tmp`, { force: true }); // a disk that filled up gets its space back
    throw error;
  }
}

/**
 * The embedded database of `dataDir` copied into `into` (a file name): asked of the server that holds it, or
 * read here, with the lock held, when nothing does.
 */
export async function dumpEmbedded(dataDir: string, into: string): Promise<EmbeddedDump> {
  const databaseDir = databaseDirOf(dataDir);
  if (!existsSync(join(databaseDir, "PG_VERSION")))
    throw new BackupError(
      `DATA_DIR ${dataDir} holds no embedded database: nothing to back up. Set DATA_DIR to the store's folder, or DATABASE_URL to back up PostgreSQL.`,
    );
  for (;;) {
    const holder = dataDirHolder(databaseDir);
    if (holder) {
      const answered = await askServer(dataDir, holder, into);
      if (answered) return answered;
      continue; // it ended before answering: the database may be free now
    }
    let lock;
    try {
      lock = await acquireDataDirLock(databaseDir);
    } catch (error) {
      if (error instanceof DataDirLockedError && dataDirHolder(databaseDir)) continue; // a server just started
      throw error;
    }
    try {
      const pglite = await PGlite.create({ dataDir: databaseDir, extensions: { pg_trgm } });
      try {
        const { dump, migrations } = await dumpDatabase(pglite);
        await pipeline(Readable.from([dump]), createGzip(), createWriteStream(into, { mode: 0o600 }));
        return { file: into, migrations };
      } finally {
        await pglite.close();
      }
    } finally {
      lock.release();
    }
  }
}

/** The dump written by the running server; undefined when it ended first. */
async function askServer(
  dataDir: string,
  holder: { pid: number; name: string; command?: string },
  into: string,
): Promise<EmbeddedDump | undefined> {
  const dir = backupRequestsDir(dataDir);
  if (!existsSync(join(dir, `${holder.name}.answers`)))
    throw new BackupError(
      `DATA_DIR ${dataDir} is in use by ${holder.command ?? "a Voltio process"} (pid ${holder.pid}), which doesn't take backups (a command, or a server of an older release). Wait for it to end or restart the server, then run npm run backup again.`,
    );
  const id = randomBytes(16).toString("hex");
  const files = {
    request: join(dir, `${id}.request`),
    dump: join(dir, `${id}.tar`),
    answer: join(dir, `${id}.answer`),
  };
  writeFileSync(files.request, JSON.stringify({ requestedAt: new Date().toISOString() }), { mode: 0o600 });
  try {
    process.kill(holder.pid, "SIGUSR2");
    const deadline = Date.now() + ANSWER_TIMEOUT_MS;
    while (!existsSync(files.answer)) {
      if (dataDirHolder(databaseDirOf(dataDir))?.name !== holder.name && !existsSync(files.answer))
        return undefined;
      if (Date.now() > deadline)
        throw new BackupError(
          `The server (pid ${holder.pid}) didn't answer the backup request within ${ANSWER_TIMEOUT_MS / 60_000} minutes. Look at its log, or stop it and run npm run backup again.`,
        );
      await sleep(100);
    }
    const answer = JSON.parse(readFileSync(files.answer, "utf8")) as
      { ok: true; migrations: number } | { ok: false; error: string };
    if (!answer.ok)
      throw new BackupError(
        `The server (pid ${holder.pid}) couldn't copy its database: ${answer.error}. Look at its log and disk space, then try again.`,
      );
    await pipeline(createReadStream(files.dump), createGzip(), createWriteStream(into, { mode: 0o600 }));
    return { file: into, migrations: answer.migrations };
  } finally {
    for (const file of Object.values(files)) rmSync(file, { force: true });
  }
}

/**
 * A backup's database written as a new data directory `databaseDir` (which must not exist); the migrations it
 * holds, checked against the manifest's count by the caller.
 */
export async function loadEmbedded(dump: string, databaseDir: string): Promise<number> {
  const pglite = await PGlite.create({
    dataDir: databaseDir,
    loadDataDir: new Blob([readFileSync(dump)]),
    extensions: { pg_trgm },
  });
  try {
    return await appliedMigrations(pglite);
  } finally {
    await pglite.close();
  }
}

import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import type { Config } from "../../config";
import { uploadsDir } from "../../modules/uploads/storage";
import { shippedMigrations } from "../client";
import { acquireDataDirLock } from "../data-dir-lock";
import { databaseDirOf, dumpEmbedded, loadEmbedded } from "./embedded";
import {
  BackupError,
  describeFile,
  FORMAT_VERSION,
  MANIFEST,
  readManifest,
  type Manifest,
  type ManifestFile,
} from "./manifest";
import { dumpPostgres, postgresTarget, restorePostgres } from "./postgres";

/**
 * `npm run backup` and `npm run restore`. A backup is one folder, voltio-backup-<time>:
 * the database (PGlite's data directory as a gzipped tar, or pg_dump's custom format), the pictures of
 * DATA_DIR/uploads, the embedded mode's generated signing secret, and manifest.json, written last.
 */
const BACKUP_NAME = /^voltio-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z$/;
const JWT_SECRET_FILE = "jwt-secret";
const UPLOADS = "uploads";

export const defaultBackupsDir = (config: Pick<Config, "dataDir">) => join(config.dataDir, "backups");
const kindOf = (config: Pick<Config, "databaseUrl">): Manifest["database"] =>
  config.databaseUrl ? "postgres" : "pglite";

export interface BackupOptions {
  /** The folder the backup is made in (default DATA_DIR/backups). */
  to?: string;
  /** Then keep only this many backups in that folder, the newest. */
  keep?: number;
}

export async function takeBackup(
  config: Config,
  options: BackupOptions = {},
): Promise<{ dir: string; manifest: Manifest; removed: string[] }> {
  const parent = resolve(options.to ?? defaultBackupsDir(config));
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  const createdAt = new Date();
  const dir = join(parent, `voltio-backup-${createdAt.toISOString().replace(/:/g, "-")}`);
  // Made under another name: a backup cut short is never taken for a whole one.
  const draft = `${dir}.partial`;
  mkdirSync(draft, { mode: 0o700 });
  try {
    const database = kindOf(config);
    const databaseFile = database === "pglite" ? "database.tar.gz" : "database.dump";
    const migrations =
      database === "pglite"
        ? (await dumpEmbedded(config.dataDir, join(draft, databaseFile))).migrations
        : await dumpPostgres(config.databaseUrl!, join(draft, databaseFile));
    // The pictures after the database: every picture the copy refers to was stored before it was taken
    // (a picture is written before its address is handed out), so none is missing; a later one is harmless.
    const uploads = config.uploadsS3
      ? null
      : copyFiles(uploadsDir(config.dataDir), join(draft, UPLOADS)).length;
    const secret = join(config.dataDir, JWT_SECRET_FILE);
    const jwtSecret = existsSync(secret);
    if (jwtSecret) copyFileSync(secret, join(draft, JWT_SECRET_FILE));
    const manifest: Manifest = {
      format: "voltio-backup",
      version: FORMAT_VERSION,
      createdAt: createdAt.toISOString(),
      database,
      migrations,
      includes: { database: databaseFile, uploads, jwtSecret },
      files: await describeFiles(draft),
    };
    writeFileSync(join(draft, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    renameSync(draft, dir);
    const removed = options.keep === undefined ? [] : pruneBackups(parent, options.keep);
    return { dir, manifest, removed };
  } catch (error) {
    rmSync(draft, { recursive: true, force: true });
    throw error;
  }
}

/** The files directly in `from` copied into `to` (pictures have server-made names, no folders). */
function copyFiles(from: string, to: string): string[] {
  mkdirSync(to, { recursive: true, mode: 0o700 });
  const names = filesIn(from);
  for (const name of names) copyFileSync(join(from, name), join(to, name));
  return names;
}

const filesIn = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile()) : [];

async function describeFiles(dir: string): Promise<Record<string, ManifestFile>> {
  const files: Record<string, ManifestFile> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(dir.length + 1)] = await describeFile(path);
  }
  return files;
}

/** All but the `keep` newest backups of `parent` removed (only folders `npm run backup` made); their paths. */
function pruneBackups(parent: string, keep: number): string[] {
  const backups = readdirSync(parent)
    .filter((name) => BACKUP_NAME.test(name) && existsSync(join(parent, name, MANIFEST)))
    .sort()
    .reverse();
  const removed = backups.slice(keep).map((name) => join(parent, name));
  for (const dir of removed) rmSync(dir, { recursive: true, force: true });
  return removed;
}

export interface RestoreResult {
  manifest: Manifest;
  /** Where the pictures went, when the backup had them. */
  uploadsDir?: string;
}

/**
 * The backup in `backupDir` restored into the store `config` names: the embedded database of DATA_DIR (with
 * its lock held throughout, so a server can't start meanwhile), or the database of DATABASE_URL. A store
 * that runs is never touched; one with data only with `force`.
 */
export async function restoreBackup(
  config: Config,
  backupDir: string,
  { force = false }: { force?: boolean } = {},
): Promise<RestoreResult> {
  const dir = resolve(backupDir);
  const kind = kindOf(config);
  const manifest = await readManifest(dir, kind);
  const shipped = shippedMigrations();
  if (manifest.migrations > shipped)
    throw new BackupError(
      `${dir} was made by a newer Voltio: its database has ${manifest.migrations} migrations, this build ships ${shipped}. Restore it with that release or a later one.`,
    );
  const databaseFile = join(dir, manifest.includes.database);
  // The pictures the manifest lists (and readManifest checked), not whatever else is in the folder.
  const pictures = Object.keys(manifest.files)
    .filter((name) => name.startsWith(`${UPLOADS}/`))
    .map((name) => name.slice(UPLOADS.length + 1));
  const targetUploads = uploadsDir(config.dataDir);
  const uploadsThere = filesIn(targetUploads).length;

  if (kind === "pglite") {
    const databaseDir = databaseDirOf(config.dataDir);
    // A running server holds it: the refusal names that process.
    const lock = await acquireDataDirLock(databaseDir);
    try {
      const hasDatabase = existsSync(databaseDir) && readdirSync(databaseDir).length > 0;
      if ((hasDatabase || uploadsThere > 0) && !force)
        throw notEmpty(
          `DATA_DIR ${config.dataDir}`,
          [hasDatabase && "an embedded database", pictureCount(uploadsThere)],
          "an empty DATA_DIR",
        );
      const restoring = `${databaseDir}.restoring`;
      rmSync(restoring, { recursive: true, force: true });
      try {
        checkMigrations(await loadEmbedded(databaseFile, restoring), manifest, dir);
      } catch (error) {
        rmSync(restoring, { recursive: true, force: true });
        throw error;
      }
      rmSync(databaseDir, { recursive: true, force: true });
      renameSync(restoring, databaseDir);
      restoreFiles(dir, config.dataDir, pictures, manifest);
    } finally {
      lock.release();
    }
  } else {
    const url = config.databaseUrl!;
    const target = await postgresTarget(url);
    if (target.otherSessions > 0)
      throw new BackupError(
        `Database ${target.database} is in use (${target.otherSessions} other session${target.otherSessions === 1 ? "" : "s"}; a running Voltio?): stop every server using it, then run npm run restore again.`,
      );
    if ((target.relations > 0 || uploadsThere > 0) && !force)
      throw notEmpty(
        `Database ${target.database}`,
        [
          target.relations > 0 && `${target.relations} tables, views or sequences`,
          pictureCount(uploadsThere),
        ],
        "an empty database (createdb) and DATA_DIR",
      );
    const migrations = await restorePostgres(databaseFile, url, force);
    checkMigrations(migrations, manifest, dir);
    restoreFiles(dir, config.dataDir, pictures, manifest);
  }
  return { manifest, uploadsDir: manifest.includes.uploads === null ? undefined : targetUploads };
}

const pictureCount = (count: number) => count > 0 && `${count} picture${count === 1 ? "" : "s"} in uploads`;

function notEmpty(target: string, holds: (string | false)[], empty: string) {
  return new BackupError(
    `${target} already holds a store (${holds.filter(Boolean).join(" and ")}). Restore into ${empty}, or add --force to replace it.`,
  );
}

function checkMigrations(found: number, manifest: Manifest, dir: string) {
  if (found !== manifest.migrations)
    throw new BackupError(
      `The database restored from ${dir} has ${found} migrations where its manifest says ${manifest.migrations}: the backup is damaged. Restore another backup.`,
    );
}

/** The pictures (replacing DATA_DIR/uploads whole) and the signing secret. */
function restoreFiles(backupDir: string, dataDir: string, pictures: string[], manifest: Manifest) {
  if (manifest.includes.uploads !== null) {
    const target = uploadsDir(dataDir);
    const restoring = `${target}.restoring`;
    rmSync(restoring, { recursive: true, force: true });
    mkdirSync(restoring, { recursive: true });
    for (const name of pictures) copyFileSync(join(backupDir, UPLOADS, name), join(restoring, name));
    rmSync(target, { recursive: true, force: true });
    renameSync(restoring, target);
  }
  if (manifest.includes.jwtSecret) {
    mkdirSync(dataDir, { recursive: true });
    copyFileSync(join(backupDir, JWT_SECRET_FILE), join(dataDir, JWT_SECRET_FILE));
  }
}

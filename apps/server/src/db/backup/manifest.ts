import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { StartupError } from "../../startup";

/** A backup or restore that can't go on: one line naming the problem and the fix, like a refused start. */
export class BackupError extends StartupError {}

export const MANIFEST = "manifest.json";
const FORMAT = "voltio-backup";
/** Raised when a backup's layout changes; a restore refuses versions it doesn't know. */
export const FORMAT_VERSION = 1;

const fileSchema = z.object({ bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

/**
 * What a backup holds, written last: a folder without it is not a backup. Every file is listed with its size
 * and SHA-256, so a restore finds a truncated copy or a flipped bit before it touches anything.
 */
export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.number().int().min(1),
  createdAt: z.iso.datetime(),
  database: z.enum(["pglite", "postgres"]),
  /** Migrations applied in the database backed up: a build that ships fewer can't run it. */
  migrations: z.number().int().min(0),
  includes: z.object({
    /** The database's file in the backup. */
    database: z.string(),
    /** Pictures of DATA_DIR/uploads copied into uploads/; null: they live in a bucket, not in the backup. */
    uploads: z.number().int().min(0).nullable(),
    /** DATA_DIR/jwt-secret (the embedded mode's generated signing secret), when there was one. */
    jwtSecret: z.boolean(),
  }),
  files: z.record(z.string(), fileSchema),
});
export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = z.infer<typeof fileSchema>;

export async function describeFile(path: string): Promise<ManifestFile> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { bytes: statSync(path).size, sha256: hash.digest("hex") };
}

/** The manifest of a backup folder, refused with one line when it isn't a whole Voltio backup of this kind. */
export async function readManifest(backupDir: string, expected: Manifest["database"]): Promise<Manifest> {
  const path = join(backupDir, MANIFEST);
  if (!existsSync(path))
    throw new BackupError(
      `${backupDir} is not a Voltio backup: it has no ${MANIFEST}. Name the folder \`npm run backup\` printed (voltio-backup-…).`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw new BackupError(
      `${path} is not valid JSON: the backup is damaged. Restore another backup (or a copy of this one).`,
    );
  }
  const format = (raw as { format?: unknown } | null)?.format;
  const version = (raw as { version?: unknown } | null)?.version;
  if (format !== FORMAT)
    throw new BackupError(
      `${path} is not a Voltio backup's manifest. Name a folder made by \`npm run backup\`.`,
    );
  if (typeof version === "number" && version > FORMAT_VERSION)
    throw new BackupError(
      `${backupDir} was made by a newer Voltio (backup format ${version}; this one reads ${FORMAT_VERSION}). Restore it with that release or a later one.`,
    );
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success)
    throw new BackupError(
      `${path} is damaged (${parsed.error.issues[0]!.path.join(".") || "manifest"}: ${parsed.error.issues[0]!.message}). Restore another backup.`,
    );
  const manifest = parsed.data;
  if (manifest.database !== expected)
    throw new BackupError(
      manifest.database === "pglite"
        ? `${backupDir} holds an embedded (PGlite) store, but DATABASE_URL is set. Unset DATABASE_URL to restore it into DATA_DIR.`
        : `${backupDir} holds a PostgreSQL database, but DATABASE_URL is not set. Set DATABASE_URL to the (empty) database to restore it into.`,
    );
  for (const [name, expectedFile] of Object.entries(manifest.files)) {
    const file = join(backupDir, name);
    if (name.split(/[\\/]/).includes("..") || !existsSync(file))
      throw new BackupError(`${backupDir} is incomplete: ${name} is missing. Restore another backup.`);
    const found = await describeFile(file);
    if (found.bytes !== expectedFile.bytes || found.sha256 !== expectedFile.sha256)
      throw new BackupError(
        `${backupDir} is damaged: ${name} is not the file the backup wrote (its size or checksum differs). Restore another backup.`,
      );
  }
  if (!manifest.files[manifest.includes.database])
    throw new BackupError(`${path} is damaged: it lists no database file. Restore another backup.`);
  return manifest;
}

/** Migrations applied in a database (drizzle's journal table), through a PGlite or a node-postgres client. */
export async function appliedMigrations(client: {
  query(sql: string): Promise<{ rows: unknown[] }>;
}): Promise<number> {
  const table = (await client.query("select to_regclass('drizzle.__drizzle_migrations')::text as found"))
    .rows[0] as { found: string | null } | undefined;
  if (!table?.found) return 0;
  const counted = (await client.query("select count(*)::int as count from drizzle.__drizzle_migrations"))
    .rows[0] as { count: number };
  return counted.count;
}

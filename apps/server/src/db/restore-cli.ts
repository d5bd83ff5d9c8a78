import { loadConfig } from "../config";
import { exitWithStartupFailure, StartupError } from "../startup";
import { argumentsOrExit, usageError } from "./backup/arguments";
import { restoreBackup } from "./backup/backup";
import { shippedMigrations } from "./client";

/**
 * `npm run restore -- <backup folder> [--force]`: a backup of `npm run backup` into the store the environment
 * names (DATABASE_URL, else DATA_DIR's embedded database), with its pictures and signing secret. Refuses a
 * store that runs, and one that holds data unless --force (which replaces it).
 */
const USAGE = "Usage: npm run restore -- BACKUP_FOLDER [--force]";
const parsed = argumentsOrExit(
  { options: { force: { type: "boolean", default: false } }, allowPositionals: true },
  USAGE,
);
if (parsed.positionals.length !== 1)
  usageError("Name one backup folder (a voltio-backup-… that npm run backup printed)", USAGE);
const [backupDir] = parsed.positionals as [string];

async function restore() {
  const config = loadConfig();
  const { manifest, uploadsDir } = await restoreBackup(config, backupDir, { force: parsed.values.force });
  const into = config.databaseUrl ? "the PostgreSQL database of DATABASE_URL" : `DATA_DIR ${config.dataDir}`;
  console.log(
    `Restored the backup of ${manifest.createdAt} (${manifest.migrations} migrations) into ${into}.`,
  );
  const shipped = shippedMigrations();
  if (manifest.migrations < shipped)
    console.log(`This build has ${shipped} migrations: the server applies the newer ones when it starts.`);
  if (uploadsDir && config.uploadsS3)
    console.log(
      `Its ${manifest.includes.uploads} pictures are in ${uploadsDir}, but UPLOADS_S3_BUCKET is set: copy them into the bucket ${config.uploadsS3.bucket} (aws s3 sync ${uploadsDir} s3://${config.uploadsS3.bucket}).`,
    );
  if (manifest.includes.uploads === null)
    console.log("The backup holds no pictures (they were in a bucket): restore the bucket's own copy.");
}

await restore().catch((error: unknown) =>
  exitWithStartupFailure(
    error instanceof StartupError
      ? error
      : new StartupError(`The restore failed: ${(error as Error).message}`),
  ),
);

import { loadConfig } from "../config";
import { exitWithStartupFailure, StartupError } from "../startup";
import { argumentsOrExit, usageError } from "./backup/arguments";
import { takeBackup } from "./backup/backup";

/**
 * `npm run backup [-- --to DIR] [--keep N]`: the database, the pictures and the generated signing secret into
 * a new folder DIR/voltio-backup-<time> (DIR: DATA_DIR/backups). Runs beside the server: the embedded
 * database is copied by the server that holds it, PostgreSQL by pg_dump. --keep N then removes all but the
 * N newest backups in DIR.
 */
const USAGE = "Usage: npm run backup [-- --to DIR] [--keep N]";
const options = argumentsOrExit(
  { options: { to: { type: "string" }, keep: { type: "string" } } },
  USAGE,
).values;
const keep = options.keep === undefined ? undefined : Number(options.keep);
if (keep !== undefined && !(/^\d+$/.test(options.keep!) && keep >= 1))
  usageError("--keep must be a whole number of backups, at least 1", USAGE);

async function backup() {
  const config = loadConfig();
  const { dir, manifest, removed } = await takeBackup(config, { to: options.to, keep });
  const { uploads, jwtSecret } = manifest.includes;
  const parts = [
    `${manifest.database === "pglite" ? "the embedded database" : "the PostgreSQL database"} (${manifest.migrations} migrations)`,
    uploads === null ? undefined : `${uploads} picture${uploads === 1 ? "" : "s"}`,
    jwtSecret ? "the signing secret" : undefined,
  ].filter(Boolean);
  const listed = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
  console.log(`Backed up ${listed} to ${dir}`);
  if (uploads === null && config.uploadsS3)
    console.log(
      `The pictures are in the bucket ${config.uploadsS3.bucket}, not in this backup: keep them with the bucket's versioning and replication (docs/DEPLOYMENT.md).`,
    );
  for (const old of removed) console.log(`Removed the older backup ${old}`);
}

await backup().catch((error: unknown) =>
  exitWithStartupFailure(
    error instanceof StartupError
      ? error
      : new StartupError(`The backup failed: ${(error as Error).message}`),
  ),
);

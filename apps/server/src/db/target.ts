import { join } from "node:path";
import type { Config } from "../config";
import type { DatabaseTarget } from "./client";

/** PostgreSQL when DATABASE_URL is set, otherwise the embedded database under the data directory. */
export function databaseTarget(config: Config): DatabaseTarget {
  return config.databaseUrl
    ? { url: config.databaseUrl, poolSize: config.databasePoolSize }
    : { dataDir: join(config.dataDir, "pglite") };
}

import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { isValidTimeZone } from "@voltio/domain/weekday";

const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) =>
    value === undefined || value === "" ? undefined : value === "true" || value === "1",
  );

/** Every setting Voltio reads, validated once at start. The README's configuration table mirrors this. */
const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  DATA_DIR: z.string().default("./data"),
  STORE_TIMEZONE: z
    .string()
    .default("UTC")
    .refine(isValidTimeZone, "must be an IANA time zone such as Europe/Madrid"),
  PUBLIC_URL: z.string().url().optional(),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  DEMO: booleanFlag,
  CATALOG_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(30),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  storeTimeZone: string;
  publicUrl: string;
  jwtSecret: string;
  /** Demo mode: embedded database, demo store seeded on first start, demo logins printed. */
  demo: boolean;
  catalogCacheTtlSeconds: number;
  logLevel: z.infer<typeof environmentSchema>["LOG_LEVEL"];
  webDist: string;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const demo = e.DEMO ?? !e.DATABASE_URL;
  let jwtSecret = e.JWT_SECRET;
  if (!jwtSecret) {
    if (e.DATABASE_URL && !demo)
      throw new ConfigError("Invalid configuration:\n  JWT_SECRET: required with DATABASE_URL");
    jwtSecret = localSecret(dataDir);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    storeTimeZone: e.STORE_TIMEZONE,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    jwtSecret,
    demo,
    catalogCacheTtlSeconds: e.CATALOG_CACHE_TTL_SECONDS,
    logLevel: e.LOG_LEVEL,
    webDist: resolve(e.WEB_DIST ?? join(import.meta.dirname, "../../web/dist")),
  };
}

/** The embedded mode keeps a random signing secret beside its database, so tokens survive a restart. */
function localSecret(dataDir: string): string {
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

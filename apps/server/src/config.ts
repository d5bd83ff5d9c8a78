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
  CATALOG_COUNT_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(60),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2})?$/, "must be true, false or the number of proxies in front of the server")
    .optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(15 * 60),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 90)
    .default(30),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(12),
  RATE_LIMIT_AUTH_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(15 * 60),
  RATE_LIMIT_AUTH_PER_IP: z.coerce.number().int().min(1).default(50),
  RATE_LIMIT_AUTH_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_LOGIN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(250),
  RATE_LIMIT_LOGIN_MAX_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(4000),
  GOOGLE_CLIENT_ID: z.string().trim().optional(),
  GOOGLE_JWKS_URL: z.string().url().default("https://www.googleapis.com/oauth2/v3/certs"),
  GOOGLE_ISSUERS: z.string().default("https://accounts.google.com,accounts.google.com"),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(5 * 1024 * 1024),
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
  catalogCountCacheTtlSeconds: number;
  logLevel: z.infer<typeof environmentSchema>["LOG_LEVEL"];
  webDist: string;
  /** Fastify's trustProxy: client IPs (rate limits) come from X-Forwarded-For only behind a known proxy. */
  trustProxy: boolean | number;
  accessTokenTtlSeconds: number;
  /** A login ends after this long without a token refresh (ASVS 3.3.2 level 2: 30 minutes)… */
  sessionIdleSeconds: number;
  /** …and after this long whatever happens (ASVS 3.3.2 level 2: 12 hours). */
  sessionMaxSeconds: number;
  /**
   * Per route, on login, e-mail check, registration and refresh. Logins count failures per address and per
   * (e-mail, address); failures of an e-mail from anywhere only delay its logins, from loginDelayMs doubling
   * up to loginMaxDelayMs.
   */
  authRateLimit: {
    windowSeconds: number;
    perIp: number;
    perEmail: number;
    loginDelayMs: number;
    loginMaxDelayMs: number;
  };
  /** Google sign-in is offered only when a client id is set. */
  google: { clientId: string | undefined; jwksUrl: string; issuers: string[] };
  uploadMaxBytes: number;
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
    catalogCountCacheTtlSeconds: e.CATALOG_COUNT_CACHE_TTL_SECONDS,
    logLevel: e.LOG_LEVEL,
    webDist: resolve(e.WEB_DIST ?? join(import.meta.dirname, "../../web/dist")),
    trustProxy:
      e.TRUST_PROXY === undefined || e.TRUST_PROXY === "" || e.TRUST_PROXY === "false"
        ? false
        : e.TRUST_PROXY === "true"
          ? true
          : Number(e.TRUST_PROXY),
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    sessionIdleSeconds: e.SESSION_IDLE_MINUTES * 60,
    sessionMaxSeconds: e.SESSION_MAX_HOURS * 3600,
    authRateLimit: {
      windowSeconds: e.RATE_LIMIT_AUTH_WINDOW_SECONDS,
      perIp: e.RATE_LIMIT_AUTH_PER_IP,
      perEmail: e.RATE_LIMIT_AUTH_PER_EMAIL,
      loginDelayMs: e.RATE_LIMIT_LOGIN_DELAY_MS,
      loginMaxDelayMs: e.RATE_LIMIT_LOGIN_MAX_DELAY_MS,
    },
    google: {
      clientId: e.GOOGLE_CLIENT_ID || undefined,
      jwksUrl: e.GOOGLE_JWKS_URL,
      issuers: e.GOOGLE_ISSUERS.split(",")
        .map((issuer) => issuer.trim())
        .filter(Boolean),
    },
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
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

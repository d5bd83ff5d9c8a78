import { availableParallelism } from "node:os";
import { createHmac, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { z } from "zod";
import { StartupError } from "./startup";
import { configurationSchema, type environmentSchema } from "./config-environment";
import { DEFAULT_TRACKING_URL_TEMPLATES } from "@voltio/domain/purchase";
import { MAX_PASSWORD_HASH_COST, PRODUCTION_PASSWORD_HASH_COST } from "./modules/auth/password";
import type { LoadSheddingLimits } from "./http/load-shedding";

export interface UploadsS3Config {
  bucket: string;
  /** An S3-compatible store's address (path-style buckets); none: AWS's own. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Pictures are linked here (a public bucket or CDN); none: served through the app at /uploads/…. */
  publicUrl?: string;
}
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections per process. */
  databasePoolSize: number;
  dataDir: string;
  storeTimeZone: string;
  /** Who takes card payments, with that provider's keys: `sandbox` is built in and needs no internet. */
  payments: PaymentsConfig;
  publicUrl: string;
  /**
   * The origins a checkout may send the shopper back to: PUBLIC_URL's and RETURN_ORIGINS, never the request's
   * Host, which whoever sends the request chooses.
   */
  returnOrigins: string[];
  jwtSecret: string;
  /** Demo mode: embedded database, demo store seeded on first start, demo logins printed. */
  demo: boolean;
  /** Admin routes refuse a session without a second factor (ADMIN_REQUIRE_2FA; off in demo mode unless set). */
  adminRequireSecondFactor: boolean;
  catalogCacheTtlSeconds: number;
  catalogCountCacheTtlSeconds: number;
  stockHoldSeconds: number;
  metricsToken?: string;
  /** Pictures in a bucket; none: DATA_DIR/uploads. */
  uploadsS3?: UploadsS3Config;
  /** How many server processes share the port. */
  webConcurrency: number;
  shutdownDrainSeconds: number;
  paymentsPollMs: number;
  /** Requests are refused with 503 past these (http/load-shedding.ts). */
  loadShedding: LoadSheddingLimits;
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
  /** log2 of scrypt's N for new password hashes (modules/auth/password.ts). */
  passwordHashCost: number;
  /** Google sign-in is offered only when a client id is set. */
  google: { clientId: string | undefined; jwksUrl: string; issuers: string[] };
  uploadMaxBytes: number;
  mail: MailConfig;
  /** Carrier → its tracking page with `{number}` (TRACKING_URL_TEMPLATES, else the well-known carriers'). */
  trackingUrlTemplates: Readonly<Record<string, string>>;
}
export type PaymentsConfig =
  | {
      provider: "sandbox";
      /** Signs the sandbox's notifications to the store's own webhook (SANDBOX_WEBHOOK_SECRET, or derived). */
      webhookSecret: string;
    }
  | { provider: "mercadopago"; accessToken: string; webhookSecret: string; apiUrl: string }
  | { provider: "stripe"; secretKey: string; webhookSecret: string; apiUrl: string };
export interface MailConfig {
  /** SMTP server to deliver through; without one, messages are written as .eml files into `dir`. */
  smtpUrl: string | undefined;
  /** The From of every message, `Name <address>`. */
  from: string;
  /** DATA_DIR/mail. */
  dir: string;
  /** How often the worker looks for due messages (it is also woken right after a message is queued). */
  pollMs: number;
  /** Attempts per message before it is marked failed. */
  maxAttempts: number;
  /** A message being sent is taken again by another worker after this long (its process died). */
  leaseSeconds: number;
}

/** A setting Voltio can't run with; its message is one line with the variable, the reason and the fix. */
export class ConfigError extends StartupError {}

/** Values never echoed back in an error: they may hold passwords. */
const SECRET_VARIABLES = new Set([
  "DATABASE_URL",
  "JWT_SECRET",
  "GOOGLE_CLIENT_ID",
  "SMTP_URL",
  "MERCADOPAGO_ACCESS_TOKEN",
  "MERCADOPAGO_WEBHOOK_SECRET",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "SANDBOX_WEBHOOK_SECRET",
]);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configurationSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "");
      const value = env[name];
      const shown =
        value === undefined || SECRET_VARIABLES.has(name) ? name : `${name}=${JSON.stringify(value)}`;
      return `${shown} ${issue.message}`;
    });
    throw new ConfigError(
      `Invalid configuration: ${[...new Set(problems)].join("; ")}. Correct it in the environment (the README's configuration table lists every setting).`,
    );
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  checkDataDir(dataDir);
  const webConcurrency = e.WEB_CONCURRENCY === "auto" ? availableParallelism() : Number(e.WEB_CONCURRENCY);
  if (webConcurrency > 1 && !e.DATABASE_URL)
    throw new ConfigError(
      `Invalid configuration: WEB_CONCURRENCY=${e.WEB_CONCURRENCY} needs PostgreSQL: the embedded database belongs to one process. Set DATABASE_URL, or leave WEB_CONCURRENCY at 1.`,
    );
  // Cheap hashes save the test suites minutes of scrypt; a store must never store them (ASVS 2.4.3).
  if (e.PASSWORD_HASH_COST < PRODUCTION_PASSWORD_HASH_COST && env.NODE_ENV !== "test")
    throw new ConfigError(
      `Invalid configuration: PASSWORD_HASH_COST=${e.PASSWORD_HASH_COST} is for tests only (NODE_ENV=test). Unset it, or set ${PRODUCTION_PASSWORD_HASH_COST} to ${MAX_PASSWORD_HASH_COST}.`,
    );
  const demo = e.DEMO ?? !e.DATABASE_URL;
  let jwtSecret = e.JWT_SECRET;
  if (!jwtSecret) {
    if (e.DATABASE_URL && !demo)
      throw new ConfigError(
        "Invalid configuration: JWT_SECRET is required with DATABASE_URL. Set it to at least 32 random characters (openssl rand -base64 48).",
      );
    jwtSecret = localSecret(dataDir);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir,
    storeTimeZone: e.STORE_TIMEZONE,
    payments: paymentsConfig(e, jwtSecret),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    // Without PUBLIC_URL the store is on this machine, opened as localhost or 127.0.0.1.
    returnOrigins: [
      ...new Set([
        ...(e.PUBLIC_URL
          ? [new URL(e.PUBLIC_URL).origin]
          : [`http://localhost:${e.PORT}`, `http://127.0.0.1:${e.PORT}`]),
        ...e.RETURN_ORIGINS,
      ]),
    ],
    jwtSecret,
    demo,
    // The demo store's printed admin logins work with a password alone, as the original client expects.
    adminRequireSecondFactor: e.ADMIN_REQUIRE_2FA ?? !demo,
    catalogCacheTtlSeconds: e.CATALOG_CACHE_TTL_SECONDS,
    catalogCountCacheTtlSeconds: e.CATALOG_COUNT_CACHE_TTL_SECONDS,
    stockHoldSeconds: e.STOCK_HOLD_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    uploadsS3: e.UPLOADS_S3_BUCKET
      ? {
          bucket: e.UPLOADS_S3_BUCKET,
          endpoint: e.UPLOADS_S3_ENDPOINT,
          region: e.UPLOADS_S3_REGION,
          accessKeyId: e.UPLOADS_S3_ACCESS_KEY_ID,
          secretAccessKey: e.UPLOADS_S3_SECRET_ACCESS_KEY,
          publicUrl: e.UPLOADS_S3_PUBLIC_URL?.replace(/\/+$/, ""),
        }
      : undefined,
    webConcurrency,
    // Behind a balancer (PostgreSQL) it must see readiness fail before the port closes; alone, stop at once.
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS ?? (e.DATABASE_URL ? 5 : 0),
    paymentsPollMs: e.PAYMENTS_POLL_MS,
    loadShedding: {
      maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
      maxHeapUsedPercent: e.MAX_HEAP_USED_PERCENT,
      maxRequestsInFlight: e.MAX_REQUESTS_IN_FLIGHT,
    },
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
    passwordHashCost: e.PASSWORD_HASH_COST,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    trackingUrlTemplates: e.TRACKING_URL_TEMPLATES ?? DEFAULT_TRACKING_URL_TEMPLATES,
    mail: {
      smtpUrl: e.SMTP_URL || undefined,
      from: e.MAIL_FROM,
      dir: join(dataDir, "mail"),
      pollMs: e.MAIL_POLL_MS,
      maxAttempts: e.MAIL_MAX_ATTEMPTS,
      leaseSeconds: e.MAIL_LEASE_SECONDS,
    },
  };
}

/** The chosen provider's settings; the schema has checked that its keys are set. */
function paymentsConfig(e: z.infer<typeof environmentSchema>, jwtSecret: string): PaymentsConfig {
  switch (e.PAYMENT_PROVIDER) {
    case "sandbox":
      // Derived when unset, so the built-in provider needs no setup; every process of the store agrees on it.
      return {
        provider: "sandbox",
        webhookSecret:
          e.SANDBOX_WEBHOOK_SECRET ??
          createHmac("sha256", jwtSecret).update("voltio sandbox webhook secret").digest("base64url"),
      };
    case "mercadopago":
      return {
        provider: "mercadopago",
        accessToken: e.MERCADOPAGO_ACCESS_TOKEN!,
        webhookSecret: e.MERCADOPAGO_WEBHOOK_SECRET!,
        apiUrl: e.MERCADOPAGO_API_URL,
      };
    case "stripe":
      return {
        provider: "stripe",
        secretKey: e.STRIPE_SECRET_KEY!,
        webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
        apiUrl: e.STRIPE_API_URL,
      };
  }
}

function checkDataDir(dataDir: string) {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dataDir).isDirectory();
  } catch {
    return; // created on first use
  }
  if (!isDirectory)
    throw new ConfigError(
      `Invalid configuration: DATA_DIR ${dataDir} is a file, not a directory. Set DATA_DIR to a directory (it is created if missing).`,
    );
}

const MIN_SECRET_LENGTH = 32;

/** The embedded mode keeps a random signing secret beside its database, so tokens survive a restart. */
function localSecret(dataDir: string): string {
  const file = join(dataDir, "jwt-secret");
  let secret = readSecret(file);
  if (secret === undefined) {
    mkdirSync(dataDir, { recursive: true });
    // Written aside and linked into place: a process starting at the same instant reads a whole secret.
    const draft = `${file}.${process.pid}.tmp`;
    writeFileSync(draft, randomBytes(48).toString("base64url"), { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(draft, { force: true });
    }
    secret = readSecret(file) ?? "";
  }
  if (secret.length < MIN_SECRET_LENGTH)
    throw new ConfigError(
      `${file} ${secret ? `holds only ${secret.length} characters` : "is empty"}, and a signing secret needs at least ${MIN_SECRET_LENGTH}: delete the file to have a new one generated (everyone signed in must log in again), or set JWT_SECRET.`,
    );
  return secret;
}

function readSecret(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(
      `${file} can't be read (${(error as NodeJS.ErrnoException).code}): give this process read access to DATA_DIR, or set JWT_SECRET.`,
    );
  }
}

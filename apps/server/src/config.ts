import { availableParallelism } from "node:os";
import { createHmac, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import addressparser from "nodemailer/lib/addressparser";
import { z } from "zod";
import { PAYMENT_PROVIDERS, type PaymentProviderName } from "@voltio/domain/payments";
import { isValidTimeZone } from "@voltio/domain/weekday";
import { StartupError } from "./startup";

const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) =>
    value === undefined || value === "" ? undefined : value === "true" || value === "1",
  );

/**
 * A whole number written as canonical decimal digits: no sign, spaces, leading zeros, hex or exponent, and
 * never empty (`PORT=` is a mistake, not 0). Unset takes the default.
 */
const wholeNumber = (min: number, max: number, fallback: number) => {
  const reason = `must be a whole number from ${min} to ${max} in decimal digits, such as ${fallback}`;
  return z
    .string()
    .regex(/^(0|[1-9][0-9]{0,15})$/, reason)
    .transform(Number)
    .pipe(z.number().int().min(min, reason).max(max, reason))
    .default(fallback);
};

const hostName = z.hostname();
const emailAddress = z.email();

/** An SMTP server's URL as nodemailer reads it: smtp:// (STARTTLS when offered) or smtps:// (TLS), a host. */
const isSmtpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
  } catch {
    return false;
  }
};

/** One sender: `Name <address>` or a bare address. */
const isSender = (value: string) => {
  if (/[\r\n]/.test(value)) return false;
  const parsed = addressparser(value, { flatten: true });
  return parsed.length === 1 && emailAddress.safeParse(parsed[0]!.address).success;
};

/** A key or secret; empty is unset, as in an env file that leaves it blank. */
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined);

/**
 * A payment provider's API address: scheme, host and port only (the Stripe SDK takes no path). Tests and
 * local fakes point it elsewhere; production leaves the default.
 */
const apiAddress = (fallback: string) =>
  z
    .url(`must be an http(s) address such as ${fallback}`)
    .refine((value) => {
      const url = new URL(value);
      return /^https?:$/.test(url.protocol) && url.pathname === "/" && !url.search && !url.hash;
    }, `must be an http(s) address such as ${fallback}, with no path`)
    .transform((value) => new URL(value).origin)
    .default(fallback);

/** What each payment provider needs to be set with it: the variable, and where an operator finds its value. */
const PROVIDER_KEYS = {
  sandbox: {},
  mercadopago: {
    MERCADOPAGO_ACCESS_TOKEN:
      "the access token (APP_USR-…) of your application in Mercado Pago's Your integrations",
    MERCADOPAGO_WEBHOOK_SECRET:
      "the secret signature of your application's Webhooks notifications in Mercado Pago's Your integrations",
  },
  stripe: {
    STRIPE_SECRET_KEY: "the secret API key from the Stripe dashboard (sk_live_… or sk_test_…)",
    STRIPE_WEBHOOK_SECRET:
      "the signing secret of the store's webhook endpoint in the Stripe dashboard (whsec_…)",
  },
} as const satisfies Record<PaymentProviderName, Record<string, string>>;

/** Every setting Voltio reads, validated once at start. The README's configuration table mirrors this. */
const environmentSchema = z.object({
  PORT: wholeNumber(1, 65535, 3000),
  HOST: z
    .string()
    .refine(
      (host) => isIP(host) !== 0 || (hostName.safeParse(host).success && !/^[0-9.]+$/.test(host)),
      "must be an IP address such as 127.0.0.1 or 0.0.0.0, or a host name",
    )
    .default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  DATABASE_POOL_SIZE: wholeNumber(1, 1000, 10),
  DATA_DIR: z.string().min(1, "must be a directory path such as ./data").default("./data"),
  PAYMENT_PROVIDER: z
    .enum(PAYMENT_PROVIDERS, { error: "must be sandbox (the built-in test provider), mercadopago or stripe" })
    .default("sandbox"),
  MERCADOPAGO_ACCESS_TOKEN: optionalText,
  MERCADOPAGO_WEBHOOK_SECRET: optionalText,
  MERCADOPAGO_API_URL: apiAddress("https://api.mercadopago.com"),
  STRIPE_SECRET_KEY: optionalText.refine(
    (key) => key === undefined || /^(sk|rk)_/.test(key),
    "must be a secret API key from the Stripe dashboard (sk_live_…, sk_test_… or a restricted rk_… key)",
  ),
  STRIPE_WEBHOOK_SECRET: optionalText.refine(
    (secret) => secret === undefined || secret.startsWith("whsec_"),
    "must be the signing secret of the store's webhook endpoint in the Stripe dashboard (whsec_…)",
  ),
  STRIPE_API_URL: apiAddress("https://api.stripe.com"),
  SANDBOX_WEBHOOK_SECRET: optionalText.refine(
    (secret) => secret === undefined || secret.length >= 16,
    "must be at least 16 characters (openssl rand -base64 32), or unset to derive it from JWT_SECRET",
  ),
  STORE_TIMEZONE: z
    .string()
    .default("UTC")
    .refine(isValidTimeZone, "must be an IANA time zone such as Europe/Madrid"),
  PUBLIC_URL: z.url("must be a URL such as https://shop.example.com").optional(),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  DEMO: booleanFlag,
  CATALOG_CACHE_TTL_SECONDS: wholeNumber(0, 86_400, 30),
  CATALOG_COUNT_CACHE_TTL_SECONDS: wholeNumber(0, 86_400, 60),
  /** After SIGTERM, how long readiness answers 503 before the server stops taking requests. */
  SHUTDOWN_DRAIN_SECONDS: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,2})$/, "must be a whole number of seconds from 0 to 300, such as 5")
    .transform(Number)
    .pipe(z.number().max(300, "must be a whole number of seconds from 0 to 300, such as 5"))
    .optional(),
  /** Server processes on one port (node:cluster): a number, or `auto` for one per core. PostgreSQL only. */
  WEB_CONCURRENCY: z
    .string()
    .regex(
      /^(auto|[1-9][0-9]{0,2})$/,
      "must be auto (one per core) or a whole number of processes from 1 to 999",
    )
    .default("1"),
  /** Product pictures in an S3-compatible bucket instead of DATA_DIR/uploads (several machines share it). */
  UPLOADS_S3_BUCKET: optionalText,
  UPLOADS_S3_ENDPOINT: z.url("must be a URL such as https://s3.example.com").optional(),
  UPLOADS_S3_REGION: z.string().min(1).default("us-east-1"),
  UPLOADS_S3_ACCESS_KEY_ID: optionalText,
  UPLOADS_S3_SECRET_ACCESS_KEY: optionalText,
  UPLOADS_S3_PUBLIC_URL: z
    .url("must be the bucket's public address, such as https://pics.example.com")
    .optional(),
  /** GET /api/metrics answers only with this bearer token (404 without one set). */
  METRICS_TOKEN: optionalText.refine(
    (token) => token === undefined || token.length >= 16,
    "must be at least 16 characters (openssl rand -hex 24)",
  ),
  /** How long a checkout keeps its units from other shoppers while its buyer pays. */
  STOCK_HOLD_SECONDS: wholeNumber(10, 86_400, 900),
  /** How often the payments worker sends due refunds and re-checks open checkouts (0: never on a timer). */
  PAYMENTS_POLL_MS: wholeNumber(0, 3_600_000, 30_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|[0-9]|[1-9][0-9])?$/,
      "must be true, false or the number of proxies in front of the server",
    )
    .optional(),
  ACCESS_TOKEN_TTL_SECONDS: wholeNumber(1, 86_400, 15 * 60),
  SESSION_IDLE_MINUTES: wholeNumber(1, 60 * 24 * 90, 30),
  SESSION_MAX_HOURS: wholeNumber(1, 24 * 365, 12),
  RATE_LIMIT_AUTH_WINDOW_SECONDS: wholeNumber(1, 86_400, 15 * 60),
  RATE_LIMIT_AUTH_PER_IP: wholeNumber(1, 1_000_000, 50),
  RATE_LIMIT_AUTH_PER_EMAIL: wholeNumber(1, 1_000_000, 10),
  RATE_LIMIT_LOGIN_DELAY_MS: wholeNumber(0, 60_000, 250),
  RATE_LIMIT_LOGIN_MAX_DELAY_MS: wholeNumber(0, 60_000, 4000),
  GOOGLE_CLIENT_ID: z.string().trim().optional(),
  GOOGLE_JWKS_URL: z
    .url("must be a URL such as https://www.googleapis.com/oauth2/v3/certs")
    .default("https://www.googleapis.com/oauth2/v3/certs"),
  GOOGLE_ISSUERS: z.string().default("https://accounts.google.com,accounts.google.com"),
  UPLOAD_MAX_BYTES: wholeNumber(1024, 50 * 1024 * 1024, 5 * 1024 * 1024),
  // Empty is unset, as in an env file that leaves it blank: mail is written to DATA_DIR/mail.
  SMTP_URL: z
    .string()
    .trim()
    .refine(
      (url) => url === "" || isSmtpUrl(url),
      "must be a URL such as smtp://user:password@mail.example.com:587 or smtps://user:password@mail.example.com:465",
    )
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .refine(isSender, "must be one sender such as Voltio <no-reply@shop.example.com>")
    .default("Voltio <no-reply@voltio.test>"),
  MAIL_POLL_MS: wholeNumber(100, 3_600_000, 5000),
  MAIL_MAX_ATTEMPTS: wholeNumber(1, 100, 8),
  // A sending worker renews its lease every third of it: a message whose process died is sent by another
  // worker within this plus MAIL_POLL_MS.
  MAIL_LEASE_SECONDS: wholeNumber(3, 86_400, 30),
});

/** The environment with what the chosen payment provider needs: its keys are required with it. */
const configurationSchema = environmentSchema.superRefine((env, context) => {
  const required: Record<string, string> = PROVIDER_KEYS[env.PAYMENT_PROVIDER];
  for (const [variable, where] of Object.entries(required)) {
    if (env[variable as keyof typeof env] === undefined)
      context.addIssue({
        code: "custom",
        path: [variable],
        message: `is required with PAYMENT_PROVIDER=${env.PAYMENT_PROVIDER}: set it to ${where}`,
      });
  }
});

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
  jwtSecret: string;
  /** Demo mode: embedded database, demo store seeded on first start, demo logins printed. */
  demo: boolean;
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
  mail: MailConfig;
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
    jwtSecret,
    demo,
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

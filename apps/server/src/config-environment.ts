import { isIP } from "node:net";
import addressparser from "nodemailer/lib/addressparser";
import { z } from "zod";
import { PAYMENT_PROVIDERS, type PaymentProviderName } from "@voltio/domain/payments";
import { isValidTimeZone } from "@voltio/domain/weekday";

/** The environment variables the server reads, each with its rule and default (config.ts turns them into a Config). */

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

/** `scheme://host[:port]` of an http(s) address with nothing after it but a slash; undefined for anything else. */
const originOf = (value: string) => {
  try {
    const url = new URL(value);
    const bare = /^https?:$/.test(url.protocol) && url.pathname === "/" && !/[?#@]/.test(value);
    return bare ? url.origin : undefined;
  } catch {
    return undefined;
  }
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
export const environmentSchema = z.object({
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
  /** Other addresses a checkout may send the shopper back to, besides PUBLIC_URL (comma-separated origins). */
  RETURN_ORIGINS: z
    .string()
    .optional()
    .transform((value, context) => {
      const items = (value ?? "").split(",").map((item) => item.trim());
      const origins = items.filter(Boolean).map(originOf);
      if (origins.every((origin) => origin !== undefined)) return origins;
      context.addIssue({
        code: "custom",
        message: "must be comma-separated http(s) origins with no path, such as https://shop.example.com",
      });
      return z.NEVER;
    }),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  DEMO: booleanFlag,
  /** Admins must sign in with a second factor; unset: yes, except in demo mode. */
  ADMIN_REQUIRE_2FA: booleanFlag,
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
  /**
   * Load shedding (http/load-shedding.ts): 503 + Retry-After while the event loop lags more than this (0: off).
   * Off unless set: building the search index lags the loop for seconds at 100k products, which is no overload.
   */
  MAX_EVENT_LOOP_DELAY_MS: wholeNumber(0, 60_000, 0),
  /** …or while the heap in use passes this share of V8's heap limit, in percent (0: off). */
  MAX_HEAP_USED_PERCENT: wholeNumber(0, 100, 90),
  /** …or while this many requests are being answered at once (0: no limit). */
  MAX_REQUESTS_IN_FLIGHT: wholeNumber(0, 100_000, 200),
  /**
   * log2 of scrypt's N for new password hashes: 17 (OWASP's minimum, 128 MiB a hash) unless set; under 17
   * only in tests (config.ts), 18 at most (256 MiB a hash).
   */
  PASSWORD_HASH_COST: wholeNumber(10, 18, 17),
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
  // Carrier → tracking page with {number}, as JSON; empty or unset: the well-known carriers' defaults.
  TRACKING_URL_TEMPLATES: z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const reason =
        'must be a JSON object of carrier names and https URLs with {number}, such as {"UPS":"https://www.ups.com/track?tracknum={number}"}';
      try {
        const parsed = trackingTemplatesSchema.safeParse(JSON.parse(value));
        if (parsed.success) return parsed.data;
      } catch {
        // not JSON: the same reason below
      }
      context.addIssue({ code: "custom", message: reason });
      return z.NEVER;
    }),
  MAIL_POLL_MS: wholeNumber(100, 3_600_000, 5000),
  MAIL_MAX_ATTEMPTS: wholeNumber(1, 100, 8),
  // A sending worker renews its lease every third of it: a message whose process died is sent by another
  // worker within this plus MAIL_POLL_MS.
  MAIL_LEASE_SECONDS: wholeNumber(3, 86_400, 30),
});

/** TRACKING_URL_TEMPLATES once parsed: each carrier's page is an http(s) URL with a {number} to fill in. */
const trackingTemplatesSchema = z.record(
  z.string().trim().min(1).max(40),
  z
    .string()
    .max(500)
    .refine((url) => /^https?:\/\/[^\s]+$/.test(url) && url.includes("{number}")),
);

/** The environment with what the chosen payment provider needs: its keys are required with it. */
export const configurationSchema = environmentSchema.superRefine((env, context) => {
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

import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply } from "fastify";
import helmet from "helmet";
import { isApiCall } from "./access";

type HeaderValues = Record<string, string>;

/**
 * Powerful features the store never uses, refused to its pages and to anything they frame; a checkout is a
 * redirect to the provider's own page, so not even `payment` is needed. Passkeys are the exception: WebAuthn
 * runs in the store's own pages only. Features not named keep the browser's default (the page itself).
 */
export const PERMISSIONS_POLICY = [
  ...[
    "accelerometer",
    "browsing-topics",
    "camera",
    "display-capture",
    "geolocation",
    "gyroscope",
    "hid",
    "idle-detection",
    "magnetometer",
    "microphone",
    "midi",
    "payment",
    "screen-wake-lock",
    "serial",
    "usb",
    "xr-spatial-tracking",
  ].map((feature) => `${feature}=()`),
  "publickey-credentials-create=(self)",
  "publickey-credentials-get=(self)",
].join(", ");

/**
 * Helmet's headers on every reply, refusals included (ASVS 14.4). They depend on the configuration only, so
 * each middleware runs once, at start, and every reply gets its headers in Fastify's own header list: run
 * per request it set them one by one on the raw response (1–2% of an uncached listing's CPU), and a header
 * set there makes Node check every other header of the reply again.
 */
export function sendSecurityHeaders(
  app: FastifyInstance,
  { scriptHashes, google }: { scriptHashes: string[]; google: string[] },
): void {
  const page = headersOf(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", "data:", "https:"],
          scriptSrc: ["'self'", ...scriptHashes, ...google.map((origin) => `${origin}/gsi/client`)],
          // No 'unsafe-inline': an injected style attribute or element does nothing. A page's own inline
          // styles carry its reply's nonce (styleNonce).
          styleSrc: ["'self'", ...google.map((origin) => `${origin}/gsi/style`)],
          connectSrc: ["'self'", ...google.map((origin) => `${origin}/gsi/`)],
          frameSrc: ["'self'", ...google.map((origin) => `${origin}/gsi/`)],
          upgradeInsecureRequests: null,
        },
      },
    }),
  );
  page["permissions-policy"] = PERMISSIONS_POLICY;
  // The OpenAPI UI (swagger-ui's bundle) writes style elements of its own as it runs, and shows nothing of a
  // shopper's: its pages alone keep inline styles, as every page did before the nonces.
  const docs: HeaderValues = {
    ...page,
    "content-security-policy": page["content-security-policy"]!.replace(
      /(^|;)style-src /,
      (directive) => `${directive}'unsafe-inline' `,
    ),
  };
  // JSON replies get what an API needs (OWASP REST Security Cheat Sheet): nothing may load, run or frame
  // them, no type sniffing, HTTPS only, no referrer. The page policy and the headers only documents use would
  // add ~700 bytes to each one, about 4% of a catalogue page's reply.
  const api = headersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      },
      xFrameOptions: { action: "deny" },
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(
      isApiCall(request.url) && !request.routeOptions.config.page
        ? api
        : /^\/api\/docs(?:[/?]|$)/.test(request.url)
          ? docs
          : page,
    );
    done();
  });
}

const nonces = new WeakMap<FastifyReply, string>();

/**
 * A nonce for the inline styles of this reply's page: its `<style nonce>` elements, and those the page's
 * scripts add at run time (a dialog's scroll lock). A fresh one per reply, added to the reply's policy, so a
 * nonce seen in one page can't let styles into another. Only pages that need one ask for it: the policy of
 * every other reply stays the one computed at start.
 */
export function styleNonce(reply: FastifyReply): string {
  const known = nonces.get(reply);
  if (known) return known;
  const policy = String(reply.getHeader("content-security-policy") ?? "");
  if (!/(^|;)style-src /.test(policy))
    throw new Error("styleNonce: this reply has no page policy to add it to");
  const nonce = randomBytes(16).toString("base64");
  reply.header(
    "content-security-policy",
    policy.replace(/(^|;)style-src /, (directive) => `${directive}'nonce-${nonce}' `),
  );
  nonces.set(reply, nonce);
  return nonce;
}

/** The headers a helmet middleware sets: it reads nothing of the request, so one run tells them all. */
function headersOf(middleware: ReturnType<typeof helmet>): HeaderValues {
  const headers: HeaderValues = {};
  const response = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error("helmet no longer sets its headers at once: read them per request again");
  return headers;
}

import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";
import { isApiCall } from "./access";

type HeaderValues = Record<string, string>;

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
          styleSrc: ["'self'", "'unsafe-inline'", ...google.map((origin) => `${origin}/gsi/style`)],
          connectSrc: ["'self'", ...google.map((origin) => `${origin}/gsi/`)],
          frameSrc: ["'self'", ...google.map((origin) => `${origin}/gsi/`)],
          upgradeInsecureRequests: null,
        },
      },
    }),
  );
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
    reply.headers(isApiCall(request.url) && !request.routeOptions.config.page ? api : page);
    done();
  });
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

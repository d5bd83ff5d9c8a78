import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import {
  AccessTokenExpired,
  Conflict,
  InvalidInput,
  NotAllowed,
  NotFound,
  NotSignedIn,
  ServiceError,
  TooManyAttempts,
  UnsupportedContent,
  UpstreamUnavailable,
} from "../errors";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "../db/unavailable";

/** The one place where a refusal becomes an HTTP status (docs/product-rules.md §10: `{error}` plus details for input). */
const STATUS = new Map<abstract new (...args: never[]) => ServiceError, number>([
  [InvalidInput, 400],
  [NotSignedIn, 401],
  [AccessTokenExpired, 403],
  [NotAllowed, 403],
  [NotFound, 404],
  [Conflict, 409],
  [UnsupportedContent, 415],
  [TooManyAttempts, 429],
  [UpstreamUnavailable, 502],
]);

/** PostgreSQL's deadlock_detected and serialization_failure. */
const TRY_AGAIN_CODES = new Set(["40P01", "40001"]);

function statusOf(error: ServiceError): number {
  for (const [type, status] of STATUS) if (error instanceof type) return status;
  return 400;
}

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  errors?: ZodIssueLike[][];
}

/**
 * A value every option of a union refused (a picture as an address, or as `{url}`): the reason is that of
 * the one option of the value's own kind, not zod's "Invalid input".
 */
function explainUnion(errors: ZodIssueLike[][] | undefined): ZodIssueLike | undefined {
  const ofItsKind = (errors ?? []).filter(
    (issues) => issues[0] && !(issues[0].code === "invalid_type" && issues[0].path.length === 0),
  );
  const issue = ofItsKind.length === 1 ? ofItsKind[0]![0]! : undefined;
  if (issue?.code !== "invalid_union") return issue;
  const inner = explainUnion(issue.errors);
  return inner && { ...inner, path: [...issue.path, ...inner.path] };
}

export function handleError(fastifyError: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const error: Error = fastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError)) {
    const details = fastifyError.validation.map((issue) => {
      const inner =
        issue.keyword === "invalid_union"
          ? explainUnion(issue.params?.errors as ZodIssueLike[][] | undefined)
          : undefined;
      const path = inner ? [issue.instancePath, ...inner.path].join("/") : issue.instancePath;
      return {
        field:
          path.replace(/^\//, "").replaceAll("/", ".") ||
          String(issue.params?.issue ?? fastifyError.validationContext ?? "body"),
        reason: inner?.message ?? issue.message ?? "is invalid",
      };
    });
    const first = details[0];
    return reply
      .code(400)
      .send({ error: first ? `${first.field}: ${first.reason}` : "Invalid request", details });
  }
  if (error instanceof AccessTokenExpired) {
    return reply.code(403).send({ error: { name: "TokenExpiredError", message: error.message } });
  }
  if (error instanceof ServiceError) {
    if (error instanceof TooManyAttempts) reply.header("retry-after", String(error.retryAfterSeconds));
    if (error instanceof UpstreamUnavailable) request.log.error(`${error.upstream} ${error.detail}`);
    const details =
      error instanceof InvalidInput ? [{ field: error.field, reason: error.reason }] : undefined;
    return reply.code(statusOf(error)).send({ error: error.message, details, ...error.extra });
  }
  // Two requests locked the same rows in opposite orders (an admin's status change and a shopper's move of
  // the same line): the database gave up on this one, which changed nothing and may simply be sent again.
  if (TRY_AGAIN_CODES.has(String((error.cause as { code?: unknown } | undefined)?.code))) {
    request.log.warn({ err: forTheLog(error) }, "request lost a lock race");
    reply.header("retry-after", "1");
    return reply.code(409).send({ error: "The record was being changed by another request: try again" });
  }
  // PostgreSQL restarting, stopped or our connections terminated: nothing was done, and sending again soon works.
  if (isDatabaseUnavailable(error)) {
    const cause = (error.cause as Error | undefined) ?? error;
    request.log.warn(
      { reason: cause.message, code: (cause as { code?: unknown }).code },
      "database unavailable",
    );
    reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
    return reply.code(503).send({ error: "The store is briefly unavailable: try again in a few seconds" });
  }
  // The disk under DATA_DIR is full (an upload, a mail file): nothing was kept; the operator must free space.
  const { code } = error as { code?: unknown };
  if (code === "ENOSPC" || code === "EDQUOT") {
    request.log.error({ code, reason: error.message }, "disk full");
    reply.header("retry-after", "60");
    return reply.code(503).send({ error: "The store can't save files right now: try again later" });
  }
  // Fastify's and its plugins' own refusals (malformed JSON, a body too large, a wrong content type).
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return reply.code(status).send({ error: error.message });
  }
  request.log.error({ err: forTheLog(error) }, "request failed");
  return reply.code(500).send({ error: "Internal Server Error" });
}

/**
 * A failed query's message is its SQL text and parameters, which may carry what a client sent: the log gets
 * the database's own reason and code instead.
 */
function forTheLog(error: Error): Error | { type: string; message: string; code?: unknown } {
  if (!error.message.startsWith("Failed query")) return error;
  const cause = error.cause as { message?: unknown; code?: unknown } | undefined;
  return {
    type: error.name,
    message: typeof cause?.message === "string" ? cause.message : "query failed",
    code: cause?.code,
  };
}

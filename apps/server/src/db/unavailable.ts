/**
 * Whether an error says the database is away for now (restarting, stopped, our connections terminated) rather
 * than that the request or the code is wrong: such a request changed nothing and may be sent again shortly,
 * so it gets 503 and Retry-After, not 500.
 */

/** Node's socket errors when PostgreSQL isn't there or dropped the connection. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs: admin_shutdown (a restart, pg_terminate_backend), crash_shutdown, cannot_connect_now (starting
 * up or shutting down); class 08 is every connection exception, class 53 insufficient resources (disk full,
 * out of memory, too many connections): the statement changed nothing, and the operator has been told by the log.
 */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03"]);
const SERVER_CLASSES = ["08", "53"];

/** node-postgres reports a connection that ended mid-query, or a pool that couldn't connect in time, by message. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Client has encountered a connection error/,
];

/** Seconds a client should wait before sending again: about how long a PostgreSQL restart takes. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function isDatabaseUnavailable(error: unknown): boolean {
  // drizzle wraps the driver's error as `cause` of its "Failed query"; an AggregateError lists each address tried.
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message, errors } = current as { code?: unknown; message?: unknown; errors?: unknown };
    if (
      typeof code === "string" &&
      (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || SERVER_CLASSES.includes(code.slice(0, 2)))
    )
      return true;
    if (typeof message === "string" && DRIVER_MESSAGES.some((pattern) => pattern.test(message))) return true;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

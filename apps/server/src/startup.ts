/**
 * A refusal to start: its message is one line that names the problem and the fix, printed without a stack.
 */
export class StartupError extends Error {}

/** One line for the operator, whatever went wrong; the stack only when LOG_LEVEL asks for detail. */
export function startupFailureLine(error: unknown): string {
  if (error instanceof StartupError) return oneLine(error.message);
  const message = error instanceof Error ? error.message : String(error);
  return oneLine(
    `Voltio could not start: ${message || (error as object)?.constructor?.name || "unknown error"}`,
  );
}

/** Prints why the process can't go on and ends it with exit code 1. */
export function exitWithStartupFailure(error: unknown): never {
  console.error(startupFailureLine(error));
  if (!(error instanceof StartupError) && /^(debug|trace)$/.test(process.env.LOG_LEVEL ?? "")) {
    console.error(error);
  }
  process.exit(1);
}

/** The listen errors an operator can fix, as one line each. */
export function listenFailure(error: unknown, port: number, host: string): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case "EADDRINUSE":
      return new StartupError(
        `PORT ${port} is already in use on ${host}: stop the program that holds it (another Voltio?) or set PORT to a free port.`,
      );
    case "EACCES":
      return new StartupError(
        `PORT ${port} on ${host} needs privileges this process lacks: set PORT to 1024 or above (and let a reverse proxy listen on 80/443).`,
      );
    case "EADDRNOTAVAIL":
      return new StartupError(
        `HOST ${host} is not an address of this machine: set HOST to 127.0.0.1, 0.0.0.0 or one of its own addresses.`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return new StartupError(
        `HOST ${host} does not resolve to an address: set HOST to an IP address such as 127.0.0.1 or 0.0.0.0.`,
      );
    default:
      return error;
  }
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

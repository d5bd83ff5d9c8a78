import { parseArgs, type ParseArgsConfig } from "node:util";

/** A command's arguments, or a one-line complaint with its usage and exit code 2 (as create-admin's). */
export function argumentsOrExit<T extends ParseArgsConfig>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    return usageError((error as Error).message, usage);
  }
}

export function usageError(problem: string, usage: string): never {
  console.error(`${problem.replace(/\.$/, "")}. ${usage}`);
  process.exit(2);
}

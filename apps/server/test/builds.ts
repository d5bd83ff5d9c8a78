import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const root = join(import.meta.dirname, "../../..");
const webDir = join(root, "apps/web");
const serverDir = join(root, "apps/server");
export const WEB_DIST = join(webDir, "dist");
/** apps/server/build.mjs's output: `npm run serve` runs dist/main.js. */
export const SERVER_DIST = join(serverDir, "dist");

interface Build {
  name: string;
  /** Files the build writes: it is due when one is missing or older than a source. */
  outputs: string[];
  sources: string[];
  command: [string, ...string[]];
}

const builds = {
  web: {
    name: "web",
    outputs: [join(WEB_DIST, "index.html"), join(webDir, "dist-ssr/entry-server.js")],
    sources: [
      join(webDir, "src"),
      join(webDir, "public"),
      join(webDir, "index.html"),
      join(webDir, "vite.config.ts"),
      join(webDir, "scripts"),
      join(root, "packages/domain/src"),
    ],
    command: ["npm", "run", "build", "-w", "apps/web"],
  },
  server: {
    name: "server",
    outputs: ["main.js", "seed-cli.js", "create-admin-cli.js", "backup-cli.js", "restore-cli.js"].map(
      (file) => join(SERVER_DIST, file),
    ),
    sources: [
      join(serverDir, "src"),
      join(serverDir, "build.mjs"),
      join(serverDir, "package.json"),
      join(root, "packages/domain/src"),
    ],
    command: [process.execPath, join(serverDir, "build.mjs")],
  },
} satisfies Record<string, Build>;

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

function upToDate({ outputs, sources }: Build): boolean {
  if (!outputs.every((file) => existsSync(file))) return false;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return Math.max(...sources.map(newestChange)) <= built;
}

/** A lock left behind by a test process that died mid-build. */
function lockAbandoned(lock: string): boolean {
  try {
    process.kill(Number(readFileSync(join(lock, "pid"), "utf8")), 0);
    return false;
  } catch {
    // No pid yet is a lock being taken this very moment, unless it has been so for a while.
    return existsSync(join(lock, "pid")) || Date.now() - statSync(lock).mtimeMs > 10_000;
  }
}

function run({ name, command: [file, ...args] }: Build) {
  try {
    execFileSync(file, args, { cwd: root, stdio: "pipe" });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`the ${name} build failed:\n${stdout?.toString() ?? ""}${stderr?.toString() ?? ""}`);
  }
}

/**
 * A build the tests need, as `npm run build` makes it: `npm test` builds before the server suites start; a
 * test run on its own builds here when an output is missing or older than the sources. Test files run in
 * parallel (and the PGlite and PostgreSQL projects at once), so one builds while the others wait.
 */
async function built(build: Build): Promise<void> {
  const lock = join(root, `node_modules/.cache/voltio-test/${build.name}-build.lock`);
  mkdirSync(join(lock, ".."), { recursive: true });
  while (!upToDate(build)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test process builds: wait for it, unless it died holding the lock.
      if (existsSync(lock) && lockAbandoned(lock)) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
      continue;
    }
    try {
      writeFileSync(join(lock, "pid"), String(process.pid));
      if (!upToDate(build)) run(build);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** The built web app, for the tests of the pages the server renders. */
export async function builtWebApp(): Promise<string> {
  await built(builds.web);
  return WEB_DIST;
}

/** The built server (dist/main.js and the CLIs), for the tests that run it as `npm run serve` does. */
export async function builtServer(): Promise<string> {
  await built(builds.server);
  return SERVER_DIST;
}

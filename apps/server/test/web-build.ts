import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const root = join(import.meta.dirname, "../../..");
const webDir = join(root, "apps/web");
export const WEB_DIST = join(webDir, "dist");
const outputs = [join(WEB_DIST, "index.html"), join(webDir, "dist-ssr/entry-server.js")];
const sources = [
  join(webDir, "src"),
  join(webDir, "public"),
  join(webDir, "index.html"),
  join(webDir, "vite.config.ts"),
  join(webDir, "scripts"),
  join(root, "packages/domain/src"),
];
const lock = join(root, "node_modules/.cache/voltio-test/web-build.lock");

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

function upToDate(): boolean {
  if (!outputs.every((file) => existsSync(file))) return false;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return Math.max(...sources.map(newestChange)) <= built;
}

/** A lock left behind by a test process that died mid-build. */
function lockAbandoned(): boolean {
  try {
    process.kill(Number(readFileSync(join(lock, "pid"), "utf8")), 0);
    return false;
  } catch {
    // No pid yet is a lock being taken this very moment, unless it has been so for a while.
    return existsSync(join(lock, "pid")) || Date.now() - statSync(lock).mtimeMs > 10_000;
  }
}

function build() {
  try {
    execFileSync("npm", ["run", "build", "-w", "apps/web"], { cwd: root, stdio: "pipe" });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`the web build failed:\n${stdout?.toString() ?? ""}${stderr?.toString() ?? ""}`);
  }
}

/**
 * The built web app for the tests of the pages the server renders: `npm test` builds it before the server
 * suites start; a test run on its own builds it here when it is missing or older than the web sources.
 * Test files run in parallel (and the PGlite and PostgreSQL projects at once), so one builds while the
 * others wait.
 */
export async function builtWebApp(): Promise<string> {
  mkdirSync(join(lock, ".."), { recursive: true });
  while (!upToDate()) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test process builds: wait for it, unless it died holding the lock.
      if (existsSync(lock) && lockAbandoned()) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
      continue;
    }
    try {
      writeFileSync(join(lock, "pid"), String(process.pid));
      if (!upToDate()) build();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return WEB_DIST;
}

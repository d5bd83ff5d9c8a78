import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { openDatabase } from "../src/db/client";
import { seedDemoStore } from "../src/db/seed/demo-store";
import { SERVER_DIST } from "./builds";
import { pgliteSnapshotPath } from "./database";

/** Helpers for tests that run the real server and CLIs as child processes, the way an operator does. */

export const repoRoot = join(import.meta.dirname, "../../..");

const made: string[] = [];

/** A fresh directory under the system's temporary one, removed by removeTempDirs(). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `voltio-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Every directory tempDir, dataDirTemplate and copyDataDir made (each data dir copy is ~40 MB). */
export function removeTempDirs() {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Exit code, or the signal's name, once the process ended and its output was read. */
  exited: Promise<number | string>;
  /** Resolves once the server printed its address (it listens), rejects if it exits first. */
  ready: Promise<void>;
  /** Resolves with the first stdout line matching, once it is printed. */
  line(pattern: RegExp): Promise<string>;
}

/**
 * `node <script>` from the repository root, with only the given settings in its environment: a script of the
 * server's build (`await builtServer()` first, in beforeAll), as `npm run serve`, `seed` and `create-admin` run.
 */
export function run(
  script: "main" | "seed-cli" | "create-admin-cli" | "backup-cli" | "restore-cli",
  env: Record<string, string>,
  args: string[] = [],
): Run {
  const file = join(SERVER_DIST, `${script}.js`);
  if (!existsSync(file)) throw new Error(`${file} is missing: await builtServer() in beforeAll`);
  const child = spawn(process.execPath, ["--enable-source-maps", file, ...args], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? tmpdir(),
      WEB_DIST: join(tmpdir(), "voltio-no-web-build"),
      LOG_LEVEL: "silent",
      // A loaded test machine lags every process's event loop: load shedding is proven by its own tests.
      MAX_EVENT_LOOP_DELAY_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  // "close", not "exit": by then its output has been read to the end.
  const exited = new Promise<number | string>((resolve) =>
    child.once("close", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (out.includes("Voltio is running at")) resolve();
    };
    child.stdout!.on("data", check);
    void exited.then((code) => reject(new Error(`exited with ${code} before it was ready: ${err}`)));
  });
  ready.catch(() => {}); // a test that expects a refusal never awaits it
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const check = () => {
        const found = out.split("\n").find((candidate) => pattern.test(candidate));
        if (found === undefined) return;
        child.stdout!.off("data", check);
        resolve(found);
      };
      child.stdout!.on("data", check);
      check();
    });
  return { child, stdout: () => out, stderr: () => err, exited, ready, line };
}

export const startServer = (env: Record<string, string>) => run("main", env);

/** Ends a server as a supervisor would (SIGTERM) and waits until it is gone. */
export async function stop(server: Run): Promise<number | string> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
  return server.exited;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * A DATA_DIR holding a migrated demo store, made once per test file (from the test run's PGlite snapshot
 * when there is one: a fresh initdb takes seconds); each test gets its own copy.
 */
export async function dataDirTemplate(): Promise<string> {
  const dir = tempDir("template");
  const databaseDir = join(dir, "pglite");
  mkdirSync(databaseDir, { recursive: true });
  if (existsSync(pgliteSnapshotPath("demo"))) {
    const blob = new Blob([readFileSync(pgliteSnapshotPath("demo"))]);
    const pglite = await PGlite.create({ dataDir: databaseDir, loadDataDir: blob, extensions: { pg_trgm } });
    await pglite.close();
  } else {
    const database = await openDatabase({ dataDir: databaseDir });
    await database.migrate();
    await seedDemoStore(database.db);
    await database.close();
  }
  return dir;
}

export function copyDataDir(template: string): string {
  const dir = tempDir("data");
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** A refusal as the operator sees it: exit code 1 and one line on stderr, with no stack frames. */
export async function refusal(process: Run): Promise<string> {
  const code = await process.exited;
  const stderr = process.stderr();
  if (code !== 1) throw new Error(`expected exit code 1, got ${code}; stderr: ${stderr}`);
  if (/^\s+at /m.test(stderr)) throw new Error(`a stack trace on stderr: ${stderr}`);
  const lines = stderr.trimEnd().split("\n");
  if (lines.length !== 1 || !lines[0])
    throw new Error(`expected one line on stderr, got ${lines.length}: ${stderr}`);
  return lines[0]!;
}

/**
 * The real server for a benchmark, started so that what gets measured is that server and nothing else.
 *
 * A run once reported 6,060 errors and a 2.3 s p50 on a cached page-1 run: the previous (uncached) server
 * was still shutting down on the fixed port, the new one could not listen and exited, and the readiness
 * poll got its answer from the old process — which then died mid-measurement. So: a free port per server,
 * ready only when our child says it listens and the server on the port proves it is ours (a per-run marker
 * in PUBLIC_URL, read back from /robots.txt), and stopped fully (exit seen, port free) before the next.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { builtServer } from "../apps/server/test/builds";

const root = fileURLToPath(new URL("..", import.meta.url));
const START_TIMEOUT_MS = 180_000;
/** package.json's serve script (ADR 0011), read from it: a copy here would drift. */
const SERVE = serveCommand(
  (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { scripts: { serve: string } }).scripts.serve,
);

/** `node <flags> <entry>.js` → the flags and the server's build to run. */
function serveCommand(script: string): { flags: string[]; entry: string } {
  const words = script.trim().split(/\s+/);
  const entry = words.at(-1) ?? "";
  const flags = words.slice(1, -1);
  if (words[0] !== "node" || !entry.endsWith(".js") || flags.some((flag) => !flag.startsWith("--")))
    throw new Error(`package.json's serve script is not "node --flag… <entry>.js": ${script}`);
  return { flags, entry };
}
const STOP_TIMEOUT_MS = 30_000;

export interface BenchServer {
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
  pid: number;
  /** performance.now() just before the process was started: cold-start times count from here. */
  spawnedAt: number;
  /** Throws if the server is no longer running: a measurement taken meanwhile is worthless. */
  assertRunning(): void;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * `publicUrl` defaults to a per-run marker address; pass one (`{port}` is filled in) when the pages must
 * carry a reachable canonical address, as Lighthouse checks. `entry` is another server to run through tsx
 * (the catalogue benchmark's floor, a .ts file), which must take the same handshake: print and serve back
 * its PUBLIC_URL. Voltio runs from its build, rebuilt first when older than its sources.
 */
export async function startBenchServer(
  env: Record<string, string>,
  options: { port?: number; publicUrl?: string; entry?: string } = {},
): Promise<BenchServer> {
  if (!options.entry) await builtServer();
  const chosen = options.port ?? (await freePort());
  if (await portAnswers(chosen))
    throw new Error(`port ${chosen} is already in use: stop what holds it first`);
  const publicUrl = (options.publicUrl ?? `http://bench-${randomBytes(6).toString("hex")}.invalid`).replace(
    "{port}",
    String(chosen),
  );
  const base = `http://127.0.0.1:${chosen}`;
  // The Node flags of `npm run serve`, for Voltio and the floor alike.
  const spawnedAt = performance.now();
  const child = spawn(
    process.execPath,
    [...SERVE.flags, ...(options.entry ? ["--import", "tsx", options.entry] : [SERVE.entry])],
    {
      cwd: root,
      env: {
        ...process.env,
        ...env,
        PORT: String(chosen),
        HOST: "127.0.0.1",
        PUBLIC_URL: publicUrl,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    process.stderr.write(chunk);
  });
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = signal ?? `exit code ${code}`;
      resolve();
    }),
  );
  let stdout: string | undefined = "";
  const listening = new Promise<void>((resolve, reject) => {
    // The server's log (warnings and errors at LOG_LEVEL=warn) goes on to ours: a 5xx shows its cause.
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      process.stdout.write(chunk);
      if (stdout === undefined) return;
      stdout += chunk;
      if (stdout.includes(`Voltio is running at ${publicUrl} `)) {
        stdout = undefined;
        resolve();
      }
    });
    void exited.then(() =>
      reject(new Error(`the server ended (${exit}) before it listened: ${stderr.trim()}`)),
    );
    setTimeout(
      () => reject(new Error(`the server did not listen within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    ).unref();
  });

  const server: BenchServer = {
    port: chosen,
    base,
    pid: child.pid!,
    spawnedAt,
    assertRunning() {
      if (exit)
        throw new Error(`the server on port ${chosen} ended during the run (${exit}): ${stderr.trim()}`);
    },
    async stop() {
      if (!exit) {
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(killer);
      }
      if (await portAnswers(chosen)) throw new Error(`port ${chosen} still answers after the server ended`);
    },
  };
  try {
    await listening;
    const robots = await (await fetch(`${base}/robots.txt`)).text();
    if (!robots.includes(`Sitemap: ${publicUrl}/sitemap.xml`))
      throw new Error(`port ${chosen} is answered by another server than ours`);
  } catch (error) {
    await server.stop().catch(() => {});
    throw error;
  }
  return server;
}

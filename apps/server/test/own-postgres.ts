import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./processes";

/**
 * A PostgreSQL cluster a test owns and may restart, stop and start: made with the
 * machine's initdb in a temporary directory, on a free port, removed by close(). The shared test cluster
 * (TEST_DATABASE_URL) is never touched.
 */
export interface OwnPostgres {
  /** The `voltio` database, owned by role `voltio`. */
  url: string;
  start(): Promise<void>;
  /** A fast shutdown: open connections are ended, as by an operator's restart. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** pg_terminate_backend of every connection but the caller's, as a failover or an admin does. */
  terminateConnections(): Promise<number>;
  close(): Promise<void>;
}

const run = promisify(execFile);

/** The newest PostgreSQL's programs on this machine (Debian's layout), or undefined when there are none. */
export function postgresPrograms(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const newest = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  const bin = newest && join(root, newest, "bin");
  return bin && existsSync(join(bin, "initdb")) ? bin : undefined;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresPrograms();
  if (!bin) throw new Error("No PostgreSQL programs under /usr/lib/postgresql: install postgresql");
  const dir = mkdtempSync(join(tmpdir(), "voltio-own-postgres-"));
  const data = join(dir, "data");
  const port = await freePort();
  // PostgreSQL refuses to run as root: then its own user runs it, as .ci/run does.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number((await run("id", ["-u", "postgres"])).stdout.trim()), 0);
  const pgRun = (program: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", join(bin, program), ...args])
      : run(join(bin, program), args);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  const ctl = (...args: string[]) =>
    pgRun("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", "-t", "60", ...args]);

  await pgRun("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8"]);
  await ctl("start", "-o", options);
  const admin = async <T>(use: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  };
  await admin(async (client) => {
    await client.query("create role voltio login password 'voltio'");
    await client.query("create database voltio owner voltio");
  });

  return {
    url: `postgres://voltio:voltio@127.0.0.1:${port}/voltio`,
    start: async () => void (await ctl("start", "-o", options)),
    stop: async () => void (await ctl("stop", "-m", "fast")),
    restart: async () => void (await ctl("restart", "-m", "fast", "-o", options)),
    terminateConnections: () =>
      admin(async (client) => {
        const { rowCount } = await client.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = 'voltio' and pid <> pg_backend_pid()",
        );
        return rowCount ?? 0;
      }),
    async close() {
      await ctl("stop", "-m", "immediate").catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

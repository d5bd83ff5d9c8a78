import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";

/**
 * The e2e server's own PostgreSQL database (playwright.config.ts, when TEST_DATABASE_URL is set), run by the
 * webServer's command before the server starts:
 *
 *   node --import tsx e2e/database.ts create <name>
 *
 * creates an empty database `<name>` on TEST_DATABASE_URL's server (the server migrates and seeds it), and
 * leaves a detached watcher behind that drops it once the command's shell (and with it the server) is gone:
 * Playwright stops its web servers after every other teardown, so nothing in the run could drop it later.
 */

const NAME = /^voltio_e2e_[a-z0-9_]+$/;

async function withServer<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("e2e/database.ts needs TEST_DATABASE_URL");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Whether a process (the webServer's shell) still runs. */
function running(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function create(name: string) {
  await withServer((client) => client.query(`create database ${name}`));
  // The shell that runs this script and then the server: its end is the server's end.
  const watcher = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "drop-when-gone", name, String(process.ppid)],
    { detached: true, stdio: "ignore", env: process.env },
  );
  watcher.unref();
}

async function dropWhenGone(name: string, pid: number) {
  while (running(pid)) await sleep(500);
  // `with (force)` ends what is left of the server's connections; an autovacuum worker of the superuser's
  // can't be ended by the test role, but is done within moments.
  for (let attempt = 1; ; attempt++) {
    try {
      await withServer((client) => client.query(`drop database if exists ${name} with (force)`));
      return;
    } catch (error) {
      if (attempt >= 50) throw error;
      await sleep(200);
    }
  }
}

const [command, name, pid] = process.argv.slice(2);
if (!name || !NAME.test(name)) throw new Error(`a database name like voltio_e2e_1234, not ${name}`);
if (command === "create") await create(name);
else if (command === "drop-when-gone") await dropWhenGone(name, Number(pid));
else throw new Error("usage: e2e/database.ts create|drop-when-gone <name> [pid]");

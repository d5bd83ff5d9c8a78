import { spawn } from "node:child_process";
import { accessSync, constants, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import pg from "pg";
import { appliedMigrations, BackupError } from "./manifest";

/** Where Debian's and Ubuntu's packages put each major version's programs, when they are not on the PATH. */
const DEBIAN_POSTGRESQL = "/usr/lib/postgresql";

/** pg_dump or pg_restore: on the PATH, else the newest version under /usr/lib/postgresql. */
export function findPostgresProgram(
  name: "pg_dump" | "pg_restore",
  { path = process.env.PATH ?? "", versionsDir = DEBIAN_POSTGRESQL } = {},
): string {
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  for (const dir of path.split(delimiter).filter(Boolean))
    if (executable(join(dir, name))) return join(dir, name);
  let versions: string[] = [];
  try {
    versions = readdirSync(versionsDir).sort((a, b) => Number(b) - Number(a));
  } catch {
    // no such folder
  }
  for (const version of versions) {
    const file = join(versionsDir, version, "bin", name);
    if (executable(file)) return file;
  }
  throw new BackupError(
    `${name} was not found on the PATH or in ${versionsDir}/*/bin. Install PostgreSQL's client programs of the server's major version or newer (apt install postgresql-client, brew install libpq) or add their folder to PATH.`,
  );
}

/** DATABASE_URL without its password, which goes to the program in PGPASSWORD: never on a command line. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

async function runProgram(name: "pg_dump" | "pg_restore", args: string[], url: string): Promise<void> {
  const program = findPostgresProgram(name);
  const { dbname, env } = connection(url);
  const child = spawn(program, [...args, `--dbname=${dbname}`], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0) {
    const lines = stderr.split("\n").filter(Boolean);
    const problem = (lines.find((line) => /error|fatal/i.test(line)) ?? lines[0] ?? `exit code ${code}`)
      .replace(/^pg_(dump|restore): /, "")
      .replace(PASSWORD_IN_URL, "$1***@");
    throw new BackupError(
      `${name} (${program}) failed: ${problem}.${/version mismatch/.test(stderr) ? ` Use ${name} of the server's major version or newer.` : ""}`,
    );
  }
}
const PASSWORD_IN_URL = /(:\/\/[^:/@]*:)[^@]*@/g;

/** pg_dump's custom format: one file, compressed, restorable table by table; a snapshot of one moment. */
export async function dumpPostgres(url: string, into: string): Promise<number> {
  await runProgram("pg_dump", ["--format=custom", `--file=${into}`], url);
  return withClient(url, appliedMigrations);
}

/**
 * Into the database of `url`, in one transaction (a failure leaves it as it was). `replace`: objects of the
 * same names are dropped first (--force); the roles and grants of the source are not carried over.
 */
export async function restorePostgres(dump: string, url: string, replace: boolean): Promise<number> {
  const args = ["--no-owner", "--no-acl", "--single-transaction", "--exit-on-error"];
  if (replace) args.push("--clean", "--if-exists");
  await runProgram("pg_restore", [...args, dump], url);
  return withClient(url, appliedMigrations);
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => {}); // reported by the query that meets it
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** What a restore must not overwrite: other sessions on the database (a running Voltio), and its tables. */
export async function postgresTarget(
  url: string,
): Promise<{ otherSessions: number; relations: number; database: string }> {
  return withClient(url, async (client) => {
    const sessions = await client.query<{ count: number; database: string }>(
      `select count(*) filter (where pid <> pg_backend_pid())::int as count, current_database() as database
         from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`,
    );
    const relations = await client.query<{ count: number }>(
      `select count(*)::int as count from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p', 'v', 'm', 'S')
          and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`,
    );
    return {
      otherSessions: sessions.rows[0]!.count,
      relations: relations.rows[0]!.count,
      database: sessions.rows[0]!.database,
    };
  });
}

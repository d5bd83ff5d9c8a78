import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtServer } from "../../../test/builds";
import {
  dropWhenFree,
  postgresTemplateName,
  postgresUrlOf,
  TEST_PASSWORD_HASH_COST,
  testDatabaseKind,
  withPostgresAdmin,
} from "../../../test/database";
import { multipart } from "../../../test/multipart";
import {
  copyDataDir,
  dataDirTemplate,
  freePort,
  refusal,
  removeTempDirs,
  repoRoot,
  run,
  startServer,
  stop,
  tempDir,
  type Run,
} from "../../../test/processes";
import { openDatabase, type DatabaseTarget } from "../client";
import { BackupError } from "./manifest";
import { findPostgresProgram } from "./postgres";

/**
 * `npm run backup` and `npm run restore` as an operator runs them, on the server's build: data made through
 * the API of a running server, backed up while it runs, restored into a new empty store, and a server
 * started there serving the same products, orders, payments, users and pictures.
 */
const onPostgres = testDatabaseKind() === "postgres";

/** The tables compared row for row between the store backed up and the one restored. */
const TABLES = ["products", "product_images", "bulk_orders", "orders", "checkouts", "payments", "users"];

/** A store: its DATA_DIR and, on PostgreSQL, its database. */
interface Store {
  dataDir: string;
  databaseUrl?: string;
}

const envOf = (store: Store): Record<string, string> => ({
  DATA_DIR: store.dataDir,
  ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl, JWT_SECRET: "backup-test-".repeat(4) } : {}),
});

const targetOf = (store: Store): DatabaseTarget =>
  store.databaseUrl ? { url: store.databaseUrl } : { dataDir: join(store.dataDir, "pglite") };

async function serverOn(store: Store): Promise<{ server: Run; url: string }> {
  const port = await freePort();
  const server = startServer({
    ...envOf(store),
    PORT: String(port),
    DEMO: "false",
    // The admin signs in with a password alone: two-step sign-in is tested on its own (second-factor.test.ts).
    ADMIN_REQUIRE_2FA: "false",
    NODE_ENV: "test",
    PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST),
    // No background round may change the rows compared between the backup and the server's stop.
    PAYMENTS_POLL_MS: "0",
    // The shoppers registering through the backup all come from this address.
    RATE_LIMIT_AUTH_PER_IP: "1000000",
  });
  await server.ready;
  const url = `http://127.0.0.1:${port}`;
  // Listening comes before ready: the catalogue's search index is still being built.
  while ((await fetch(`${url}/api/health/ready`)).status !== 200) await setTimeout(50);
  return { server, url };
}

async function api<T>(
  url: string,
  path: string,
  init: { method?: string; token?: string; json?: unknown; body?: Buffer; type?: string } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  if (init.type) headers["content-type"] = init.type;
  const send = () =>
    fetch(`${url}${path}`, {
      method: init.method ?? (init.json === undefined && !init.body ? "GET" : "POST"),
      headers,
      body: init.json === undefined ? init.body : JSON.stringify(init.json),
    });
  let reply = await send();
  // A busy machine may have the server shed load (503 + Retry-After): a client tries again, as told.
  for (let attempt = 1; reply.status === 503 && reply.headers.has("retry-after") && attempt < 30; attempt++) {
    await reply.arrayBuffer();
    await setTimeout(Math.min(Number(reply.headers.get("retry-after")) || 1, 2) * 1000);
    reply = await send();
  }
  const text = await reply.text();
  return {
    status: reply.status,
    body: (text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text) as T,
  };
}

async function login(url: string, email: string, password: string): Promise<number> {
  return (await api(url, "/api/user/login", { json: { email, password } })).status;
}

/** A shopper, a picture, a product showing it and an order of it, made through the running server's API. */
async function populate(url: string) {
  const shopper = {
    email: `backup-${randomBytes(4).toString("hex")}@voltio.test`,
    password: "long-enough-1",
  };
  const registered = await api(url, "/api/user", {
    json: { firstName: "Backup", lastName: "Test", ...shopper },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const shopperToken = (await api<{ accessToken: string }>(url, "/api/user/login", { json: shopper })).body
    .accessToken;
  const adminToken = (
    await api<{ accessToken: string }>(url, "/api/user/login", {
      json: { email: "admin@voltio.test", password: "Admin1234!" },
    })
  ).body.accessToken;

  // A PNG's signature and random bytes: the server checks only the first ones, and stores them as sent.
  const picture = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), randomBytes(3000)]);
  const form = multipart(picture, "p.png", "image/png");
  const uploaded = await api<{ secure_url: string }>(url, "/api/uploads", {
    token: adminToken,
    body: form.payload,
    type: form.headers["content-type"],
  });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const pictureUrl = uploaded.body.secure_url;

  const product = await api<{ id: number }>(url, "/api/products", {
    token: adminToken,
    json: {
      title: "Backed-up drone",
      name: "Quadcopter",
      price: 120,
      shippingCost: 5,
      description: "Survives a restore.",
      stock: 4,
      images: [pictureUrl],
      categories: ["Backups"],
    },
  });
  expect(product.status, JSON.stringify(product.body)).toBe(201);
  const order = await api(url, "/api/order", {
    token: shopperToken,
    json: { status: "pending", productId: product.body.id, amount: 1 },
  });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  return { shopper, picture, pictureUrl, productId: product.body.id };
}

async function backupOf(store: Store, to: string, args: string[] = []): Promise<string> {
  const backup = run("backup-cli", envOf(store), ["--to", to, ...args]);
  expect(await backup.exited, backup.stderr()).toBe(0);
  const dir = /to (\S+)$/m.exec(backup.stdout())?.[1];
  expect(dir, backup.stdout()).toBeDefined();
  return dir!;
}

const restore = (store: Store, backup: string, args: string[] = []) =>
  run("restore-cli", envOf(store), [backup, ...args]);

/** Every row of the compared tables, as JSON, in a stable order. */
async function rowsOf(store: Store): Promise<Record<string, unknown[]>> {
  const database = await openDatabase(targetOf(store));
  try {
    const tables: Record<string, unknown[]> = {};
    for (const table of TABLES) {
      const result = (await database.db.execute(
        sql.raw(`select to_jsonb(t)::text as row from ${table} t order by 1`),
      )) as unknown as { rows: { row: string }[] };
      tables[table] = result.rows.map(({ row }) => JSON.parse(row) as unknown);
    }
    return tables;
  } finally {
    await database.close();
  }
}

const picturesOf = (store: Store): Record<string, string> => {
  const dir = join(store.dataDir, "uploads");
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(join(dir, name)).toString("base64")]),
  );
};

/**
 * The whole round trip on one kind of store: `source` has the demo store, `target` is empty. Also checks
 * that a restore onto the source is refused while its server runs. The backup's folder.
 */
async function roundTrip(source: Store, target: Store, backups: string) {
  const original = await serverOn(source);
  let restored: Awaited<ReturnType<typeof serverOn>> | undefined;
  try {
    const made = await populate(original.url);
    // Shoppers register all through the backup: the copy is of one moment among their writes.
    let backingUp = true;
    const registering = (async () => {
      let registered = 0;
      while (backingUp) {
        const email = `during-${++registered}-${randomBytes(3).toString("hex")}@voltio.test`;
        const reply = await api(original.url, "/api/user", {
          json: { firstName: "During", lastName: "Backup", email, password: "long-enough-1" },
        });
        expect(reply.status).toBe(201);
      }
      return registered;
    })();
    const [backup, registered] = await Promise.all([
      backupOf(source, backups).finally(() => (backingUp = false)),
      registering,
    ]);
    expect(registered).toBeGreaterThan(0);

    // Made after the backup: the restored store must not have it.
    const late = { email: `late-${randomBytes(4).toString("hex")}@voltio.test`, password: "long-enough-1" };
    expect(
      (await api(original.url, "/api/user", { json: { firstName: "Late", lastName: "Comer", ...late } }))
        .status,
    ).toBe(201);

    const ontoRunning = await refusal(restore(source, backup, ["--force"]));
    expect(ontoRunning).toMatch(/is in use/);
    expect(await stop(original.server)).toBe(0);

    const restoring = restore(target, backup);
    expect(await restoring.exited, restoring.stderr()).toBe(0);
    expect(restoring.stdout()).toContain("Restored the backup of");

    const before = await rowsOf(source);
    const after = await rowsOf(target);
    const email = (row: unknown) => (row as { email: string }).email;
    expect(before.users!.map(email)).toContain(late.email);
    expect(after.users!.map(email)).not.toContain(late.email);
    // Every user the copy has is whole and as the store kept it; those it lacks came during or after it.
    const copied = new Set(after.users!.map(email));
    expect(after).toEqual({ ...before, users: before.users!.filter((row) => copied.has(email(row))) });
    for (const missing of before.users!.map(email).filter((address) => !copied.has(address)))
      expect(missing).toMatch(/^(during|late)-/);
    expect(after.products!.length).toBeGreaterThan(50);
    expect(after.orders!.length).toBeGreaterThan(0);
    expect(after.payments!.length).toBeGreaterThan(0);
    expect(picturesOf(target)).toEqual(picturesOf(source));

    restored = await serverOn(target);
    const product = await api<{ title: string; images: { url: string }[] | string[] }>(
      restored.url,
      `/api/products/${made.productId}`,
    );
    expect(product.status).toBe(200);
    expect(product.body.title).toBe("Backed-up drone");
    expect(JSON.stringify(product.body.images)).toContain(made.pictureUrl);
    const picture = await fetch(`${restored.url}${made.pictureUrl}`);
    expect(picture.status).toBe(200);
    expect(Buffer.from(await picture.arrayBuffer()).equals(made.picture)).toBe(true);
    expect(await login(restored.url, made.shopper.email, made.shopper.password)).toBe(200);
    expect(await login(restored.url, late.email, late.password)).toBe(401);
    return backup;
  } finally {
    await stop(original.server);
    if (restored) await stop(restored.server);
  }
}

describe.skipIf(onPostgres)(
  "npm run backup and restore, on the embedded database",
  { timeout: 300_000 },
  () => {
    let template: string;
    let backup: string;
    beforeAll(async () => {
      await builtServer();
      template = await dataDirTemplate();
    });
    afterAll(removeTempDirs);

    it("copies a running store and restores it into a new DATA_DIR: same rows, same pictures", async () => {
      const empty = tempDir("restored");
      backup = await roundTrip({ dataDir: copyDataDir(template) }, { dataDir: empty }, tempDir("backups"));
      expect(JSON.parse(readFileSync(join(backup, "manifest.json"), "utf8"))).toMatchObject({
        format: "voltio-backup",
        version: 1,
        database: "pglite",
        includes: { database: "database.tar.gz", uploads: 1, jwtSecret: true },
      });
      // The signing secret came along: tokens of the old store stay valid.
      expect(readFileSync(join(empty, "jwt-secret"), "utf8")).toBe(
        readFileSync(join(backup, "jwt-secret"), "utf8"),
      );
    });

    it("backs up a store no server runs by opening it itself, and --keep removes the older backups", async () => {
      const store = { dataDir: copyDataDir(template) };
      const backups = tempDir("backups");
      const first = await backupOf(store, backups, ["--keep", "1"]);
      const second = await backupOf(store, backups, ["--keep", "1"]);
      expect(readdirSync(backups)).toEqual([second.slice(backups.length + 1)]);
      expect(first).not.toBe(second);
    });

    it("leaves pictures kept in a bucket to the bucket, and says so", async () => {
      const store = { dataDir: copyDataDir(template) };
      const backup = run("backup-cli", { ...envOf(store), UPLOADS_S3_BUCKET: "voltio-pictures" }, [
        "--to",
        tempDir("backups"),
      ]);
      expect(await backup.exited, backup.stderr()).toBe(0);
      expect(backup.stdout()).toContain("The pictures are in the bucket voltio-pictures, not in this backup");
      const dir = /to (\S+)$/m.exec(backup.stdout())![1]!;
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { includes: object };
      expect(manifest.includes).toMatchObject({ uploads: null });
      expect(readdirSync(dir)).not.toContain("uploads");
    });

    it("refuses a DATA_DIR that holds no database, naming the settings to check", async () => {
      const line = await refusal(run("backup-cli", { DATA_DIR: tempDir("nothing") }));
      expect(line).toMatch(
        /holds no embedded database: nothing to back up\. Set DATA_DIR .* or DATABASE_URL/,
      );
    });

    it("never signals a process that holds the database without taking backups: one line says so", async () => {
      const store = { dataDir: copyDataDir(template) };
      // As `npm run seed` or a server of an older release: SIGUSR2 would end it.
      const lockModule = join(repoRoot, "apps/server/src/db/data-dir-lock.ts");
      const holder = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "--input-type=module",
          "-e",
          `const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
         await acquireDataDirLock(${JSON.stringify(join(store.dataDir, "pglite"))});
         console.log("held");
         process.stdin.resume().once("end", () => process.exit(0));`,
        ],
        { cwd: repoRoot, stdio: ["pipe", "pipe", "inherit"] },
      );
      try {
        await once(holder.stdout, "data");
        const line = await refusal(run("backup-cli", envOf(store)));
        expect(line).toMatch(/is in use by .*\(pid \d+\), which doesn't take backups/);
        expect(holder.exitCode).toBeNull();
      } finally {
        holder.stdin.end();
        await once(holder, "close");
      }
    });

    it("refuses a DATA_DIR that holds a store unless --force, which replaces it", async () => {
      const store = { dataDir: copyDataDir(template) };
      const line = await refusal(restore(store, backup));
      expect(line).toContain(`DATA_DIR ${store.dataDir} already holds a store (an embedded database)`);
      expect(line).toContain("--force");
      const forced = restore(store, backup, ["--force"]);
      expect(await forced.exited, forced.stderr()).toBe(0);
      const rows = await rowsOf(store);
      expect(rows.products!.some((row) => (row as { title: string }).title === "Backed-up drone")).toBe(true);
    });

    it.for<{ name: string; damage: (dir: string) => void; says: string | RegExp }>([
      {
        name: "a flipped byte in the database",
        damage: (dir) => {
          const file = join(dir, "database.tar.gz");
          const bytes = readFileSync(file);
          const middle = bytes.length >> 1;
          bytes.writeUInt8(bytes.readUInt8(middle) ^ 0xff, middle);
          writeFileSync(file, bytes);
        },
        says: "is damaged: database.tar.gz is not the file the backup wrote",
      },
      {
        name: "an emptied picture",
        damage: (dir) => {
          const uploads = join(dir, "uploads");
          for (const name of readdirSync(uploads)) writeFileSync(join(uploads, name), "");
        },
        says: /is damaged: uploads\/\S+ is not the file/,
      },
      {
        name: "another program's manifest",
        damage: (dir) =>
          writeFileSync(join(dir, "manifest.json"), JSON.stringify({ format: "other", files: {} })),
        says: "is not a Voltio backup's manifest",
      },
      {
        name: "a manifest that is not JSON",
        damage: (dir) => writeFileSync(join(dir, "manifest.json"), "{ half"),
        says: "is not valid JSON: the backup is damaged",
      },
      {
        name: "no manifest",
        damage: (dir) => rmSync(join(dir, "manifest.json")),
        says: "is not a Voltio backup: it has no manifest.json",
      },
      {
        name: "a PostgreSQL backup",
        damage: (dir) => editManifest(dir, { database: "postgres" }),
        says: "holds a PostgreSQL database, but DATABASE_URL is not set",
      },
      {
        name: "a newer backup format",
        damage: (dir) => editManifest(dir, { version: 2 }),
        says: "was made by a newer Voltio (backup format 2; this one reads 1)",
      },
      {
        name: "more migrations than this build ships",
        damage: (dir) => editManifest(dir, { migrations: 9999 }),
        says: "was made by a newer Voltio: its database has 9999 migrations",
      },
    ])("refuses a backup with $name, touching nothing", async ({ damage, says }) => {
      const copy = join(tempDir("damaged"), "backup");
      cpSync(backup, copy, { recursive: true });
      damage(copy);
      const empty = tempDir("target");
      const line = await refusal(restore({ dataDir: empty }, copy));
      if (typeof says === "string") expect(line).toContain(says);
      else expect(line).toMatch(says);
      expect(readdirSync(empty).filter((name) => name !== "jwt-secret")).toEqual([]);
    });
  },
);

function editManifest(dir: string, changes: Record<string, unknown>) {
  const file = join(dir, "manifest.json");
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), ...changes }));
}

describe.runIf(onPostgres)("npm run backup and restore, on PostgreSQL", { timeout: 300_000 }, () => {
  const databases: string[] = [];
  const database = async (template?: string) => {
    const name = `voltio_backup_${randomBytes(6).toString("hex")}`;
    await withPostgresAdmin((admin) =>
      admin.query(`create database ${name}${template ? ` template ${template}` : ""}`),
    );
    databases.push(name);
    return postgresUrlOf(name);
  };
  beforeAll(builtServer);
  afterAll(async () => {
    await withPostgresAdmin(async (admin) => {
      for (const name of databases) await dropWhenFree(admin, name);
    });
    removeTempDirs();
  });

  it("dumps a running store with pg_dump and restores it into an empty database: same rows, same pictures", async () => {
    const source = { dataDir: tempDir("source"), databaseUrl: await database(postgresTemplateName("demo")) };
    const target = { dataDir: tempDir("restored"), databaseUrl: await database() };
    const backup = await roundTrip(source, target, tempDir("backups"));
    expect(JSON.parse(readFileSync(join(backup, "manifest.json"), "utf8"))).toMatchObject({
      database: "postgres",
      includes: { database: "database.dump", uploads: 1, jwtSecret: false },
    });

    // The database backed up holds a store now: no restore over it without --force.
    const line = await refusal(restore(source, backup));
    expect(line).toMatch(
      /^Database voltio_backup_\w+ already holds a store \(\d+ tables, views or sequences/,
    );
    expect(line).toContain("--force");
  });
});

describe("finding pg_dump", () => {
  it("names the fix in one line when it is neither on the PATH nor in /usr/lib/postgresql", () => {
    const find = () => findPostgresProgram("pg_dump", { path: "", versionsDir: tempDir("no-postgresql") });
    expect(find).toThrow(BackupError);
    expect(find).toThrow(
      /^pg_dump was not found on the PATH or in \S+\/\*\/bin\. Install PostgreSQL's client programs/,
    );
  });
});

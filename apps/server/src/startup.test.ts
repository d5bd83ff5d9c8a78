import { rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  copyDataDir,
  dataDirTemplate,
  freePort,
  refusal,
  removeTempDirs,
  startServer,
  stop,
  tempDir,
} from "../test/processes";
import { builtServer } from "../test/builds";

/**
 * `npm start` as an operator runs it: a bad setting or a broken environment ends the process with exit code
 * 1 and one line naming the problem and the fix, never a stack trace and never a server that half works.
 */
// Each case spawns a process: on a busy machine one may take tens of seconds.
describe.concurrent("start-up", { timeout: 120_000 }, () => {
  let template: string;
  const freshDir = () => tempDir("start");
  beforeAll(async () => {
    await builtServer();
    template = await dataDirTemplate();
  });
  afterAll(removeTempDirs);

  it.for<{ env: Record<string, string>; says: string }>([
    { env: { PORT: "" }, says: 'PORT="" must be a whole number from 1 to 65535 in decimal digits' },
    { env: { PORT: "0x10" }, says: 'PORT="0x10" must be a whole number from 1 to 65535' },
    { env: { PORT: "3000.0" }, says: 'PORT="3000.0" must be a whole number' },
    { env: { PORT: "0" }, says: 'PORT="0" must be a whole number from 1 to 65535' },
    { env: { HOST: "not a host" }, says: 'HOST="not a host" must be an IP address such as 127.0.0.1' },
    { env: { HOST: "300.1.1.1" }, says: 'HOST="300.1.1.1" must be an IP address' },
    {
      env: {
        DATABASE_URL: "postgres://voltio:hunter2@127.0.0.1/x",
        JWT_SECRET: "x".repeat(40),
        DATABASE_POOL_SIZE: "ten",
      },
      says: 'DATABASE_POOL_SIZE="ten" must be a whole number from 1 to 1000',
    },
    { env: { SESSION_IDLE_MINUTES: "1e3" }, says: 'SESSION_IDLE_MINUTES="1e3" must be a whole number' },
    {
      env: { SMTP_URL: "https://voltio:hunter2@mail.example.com" },
      says: "SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587",
    },
    { env: { SMTP_URL: "mail.example.com:587" }, says: "SMTP_URL must be a URL such as smtp://" },
    {
      env: { MAIL_FROM: "Voltio no-reply" },
      says: 'MAIL_FROM="Voltio no-reply" must be one sender such as Voltio <no-reply@shop.example.com>',
    },
    {
      env: { PAYMENT_PROVIDER: "paypal" },
      says: 'PAYMENT_PROVIDER="paypal" must be sandbox (the built-in test provider), mercadopago or stripe',
    },
    {
      env: { PAYMENT_PROVIDER: "stripe", STRIPE_WEBHOOK_SECRET: "whsec_hunter2" },
      says: "STRIPE_SECRET_KEY is required with PAYMENT_PROVIDER=stripe: set it to the secret API key from the Stripe dashboard",
    },
    {
      env: {
        PAYMENT_PROVIDER: "stripe",
        STRIPE_SECRET_KEY: "pk_live_hunter2",
        STRIPE_WEBHOOK_SECRET: "whsec_x",
      },
      says: "STRIPE_SECRET_KEY must be a secret API key from the Stripe dashboard",
    },
    {
      env: { PAYMENT_PROVIDER: "mercadopago", MERCADOPAGO_ACCESS_TOKEN: "APP_USR-hunter2" },
      says: "MERCADOPAGO_WEBHOOK_SECRET is required with PAYMENT_PROVIDER=mercadopago: set it to the secret signature",
    },
  ])("refuses $env with one line naming the variable and the fix", async ({ env, says }) => {
    const line = await refusal(startServer({ DATA_DIR: freshDir(), ...env }));
    expect(line).toContain(says);
    expect(line).toContain("Correct it in the environment");
    expect(line).not.toContain("hunter2");
  });

  it("refuses a DATA_DIR that is a file", async () => {
    const file = join(freshDir(), "data");
    writeFileSync(file, "");
    expect(await refusal(startServer({ DATA_DIR: file }))).toBe(
      `Invalid configuration: DATA_DIR ${file} is a file, not a directory. Set DATA_DIR to a directory (it is created if missing).`,
    );
  });

  it.for([
    { secret: "", says: "is empty" },
    { secret: "short-secret\n", says: "holds only 12 characters" },
  ])("refuses a jwt-secret file that $says", async ({ secret, says }) => {
    const dataDir = freshDir();
    writeFileSync(join(dataDir, "jwt-secret"), secret);
    const line = await refusal(startServer({ DATA_DIR: dataDir }));
    expect(line).toContain(`${join(dataDir, "jwt-secret")} ${says}`);
    expect(line).toContain("delete the file to have a new one generated");
  });

  it("refuses a DATABASE_URL nothing answers at, without printing its password", async () => {
    const url = `postgres://voltio:hunter2@127.0.0.1:${await freePort()}/voltio`;
    const line = await refusal(
      startServer({ DATABASE_URL: url, JWT_SECRET: "x".repeat(40), DATA_DIR: freshDir() }),
    );
    expect(line).toMatch(
      /^Can't connect to PostgreSQL at DATABASE_URL postgres:\/\/voltio:\*\*\*@127\.0\.0\.1:\d+\/voltio: connection refused/,
    );
    expect(line).toContain("Start PostgreSQL or correct DATABASE_URL.");
    expect(line).not.toContain("hunter2");
  });

  it.for([
    {
      damage: "a garbage PG_VERSION",
      apply: (db: string) => writeFileSync(join(db, "PG_VERSION"), "garbage\n"),
    },
    {
      damage: "a truncated data directory",
      apply: (db: string) => rmSync(join(db, "base"), { recursive: true }),
    },
  ])("refuses an embedded database with $damage", async ({ apply }) => {
    const dataDir = copyDataDir(template);
    apply(join(dataDir, "pglite"));
    const line = await refusal(startServer({ DATA_DIR: dataDir, PORT: String(await freePort()) }));
    expect(line).toContain(`The embedded database in ${join(dataDir, "pglite")} can't be opened`);
    expect(line).toContain(
      `Restore DATA_DIR ${dataDir} from a backup, or move ${join(dataDir, "pglite")} away`,
    );
  });

  it("refuses a port already in use, and a HOST that is not this machine's", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const dataDir = copyDataDir(template);
      expect(await refusal(startServer({ DATA_DIR: dataDir, PORT: String(port) }))).toBe(
        `PORT ${port} is already in use on 127.0.0.1: stop the program that holds it (another Voltio?) or set PORT to a free port.`,
      );
      // The refused start let go of its DATA_DIR: the next one uses it.
      expect(
        await refusal(startServer({ DATA_DIR: dataDir, HOST: "192.0.2.1", PORT: String(port) })),
      ).toContain("HOST 192.0.2.1 is not an address of this machine");
    } finally {
      taken.close();
    }
  });

  it("in demo mode prints the address and the logins, then one short line per request", async () => {
    const server = startServer({
      DATA_DIR: copyDataDir(template),
      PORT: String(await freePort()),
      DEMO: "true",
      LOG_LEVEL: "info",
    });
    try {
      await server.ready;
      const port = /localhost:(\d+)/.exec(server.stdout())![1];
      expect(await server.line(/^ {2}shopper /)).toBe("  shopper  shopper@voltio.test / Shopper1234!");
      expect((await fetch(`http://127.0.0.1:${port}/api/products?offset=1`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/no-such-thing`)).status).toBe(404);
      expect(await server.line(/^GET \/api\/products\?offset=1 /)).toMatch(
        /^GET \/api\/products\?offset=1 200 \d+ ms$/,
      );
      expect(await server.line(/^GET \/api\/no-such-thing /)).toMatch(/ 404 \d+ ms$/);
    } finally {
      expect(await stop(server)).toBe(0);
    }
    expect(server.stdout()).not.toMatch(/^\{/m);
    expect(server.stderr()).toBe("");
  });

  it("runs React's production build unless NODE_ENV asks for another", async () => {
    const token = "metrics-token-for-the-start-up-test";
    const reactBuild = async (env: Record<string, string>) => {
      const server = startServer({
        DATA_DIR: copyDataDir(template),
        PORT: String(await freePort()),
        METRICS_TOKEN: token,
        ...env,
      });
      try {
        await server.ready;
        const port = /localhost:(\d+)/.exec(server.stdout())![1];
        const metrics = await fetch(`http://127.0.0.1:${port}/api/metrics`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return /^voltio_react_build_info\{build="(\w+)"\} 1$/m.exec(await metrics.text())?.[1];
      } finally {
        expect(await stop(server)).toBe(0);
      }
    };
    const [unset, development] = await Promise.all([reactBuild({}), reactBuild({ NODE_ENV: "development" })]);
    expect(unset).toBe("production");
    expect(development).toBe("development");
  });

  it("outside demo mode keeps structured JSON logs", async () => {
    const server = startServer({
      DATA_DIR: copyDataDir(template),
      PORT: String(await freePort()),
      DEMO: "false",
      LOG_LEVEL: "info",
    });
    try {
      await server.ready;
      const port = /localhost:(\d+)/.exec(server.stdout())![1];
      await fetch(`http://127.0.0.1:${port}/api/store`);
      const completed = JSON.parse(await server.line(/"msg":"request completed"/)) as Record<string, unknown>;
      expect(completed).toMatchObject({ level: 30, res: { statusCode: 200 } });
    } finally {
      expect(await stop(server)).toBe(0);
    }
  });
});

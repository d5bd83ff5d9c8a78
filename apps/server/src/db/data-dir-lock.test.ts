import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
} from "../../test/processes";
import { builtServer } from "../../test/builds";
import { acquireDataDirLock, DataDirLockedError } from "./data-dir-lock";

const bootId = () => {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return "";
  }
};

describe("the data directory lock, in one process", () => {
  afterAll(removeTempDirs);
  it("is refused while held and free again once released", async () => {
    const databaseDir = join(tempDir("lock"), "pglite");
    const lock = await acquireDataDirLock(databaseDir);
    const second = acquireDataDirLock(databaseDir);
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(`pid ${process.pid}`);
    lock.release();
    (await acquireDataDirLock(databaseDir)).release();
    expect(readdirSync(`${databaseDir}.lock`)).toEqual([]);
  });

  it("takes over a claim whose pid is alive but belongs to a process started at another time", async () => {
    const databaseDir = join(tempDir("lock"), "pglite");
    mkdirSync(`${databaseDir}.lock`, { recursive: true });
    // Our own pid, but not our start time: the pid was reused, the holder is gone.
    const stale = `${process.pid}-1-${bootId()}@${hostname().replace(/[^A-Za-z0-9.-]/g, "-")}.held`;
    writeFileSync(join(`${databaseDir}.lock`, stale), "{}");
    const lock = await acquireDataDirLock(databaseDir);
    expect(readdirSync(`${databaseDir}.lock`)).not.toContain(stale);
    lock.release();
  });

  it("never takes over a claim from another host, and says how to clear it", async () => {
    const databaseDir = join(tempDir("lock"), "pglite");
    mkdirSync(`${databaseDir}.lock`, { recursive: true });
    const claim = `4242-99-${bootId()}@other-host.held`;
    writeFileSync(join(`${databaseDir}.lock`, claim), JSON.stringify({ command: "the Voltio server" }));
    await expect(acquireDataDirLock(databaseDir)).rejects.toThrow(
      `the Voltio server, pid 4242, on host other-host`,
    );
    await expect(acquireDataDirLock(databaseDir)).rejects.toThrow(
      `delete ${join(`${databaseDir}.lock`, claim)}`,
    );
  });
});

describe("the data directory lock, across processes", { timeout: 120_000 }, () => {
  let template: string;
  const running: Run[] = [];
  beforeAll(async () => {
    await builtServer();
    template = await dataDirTemplate();
  });
  afterAll(async () => {
    await Promise.all(running.map(stop));
    removeTempDirs();
  });
  const server = async (dataDir: string) => {
    const started = startServer({ DATA_DIR: dataDir, PORT: String(await freePort()), DEMO: "false" });
    running.push(started);
    return started;
  };

  it("lets one of several processes starting at the same instant hold it", async () => {
    const databaseDir = join(tempDir("lock"), "pglite");
    const code = `const { acquireDataDirLock } = await import(${JSON.stringify(join(repoRoot, "apps/server/src/db/data-dir-lock.ts"))});
      process.stdin.once("data", async () => {
        try { await acquireDataDirLock(${JSON.stringify(databaseDir)}); console.log("won"); }
        catch (error) { console.log("lost: " + error.message); }
        process.stdin.once("data", () => process.exit(0));
      });
      console.log("loaded");`;
    const contenders = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
        cwd: repoRoot,
        stdio: ["pipe", "pipe", "inherit"],
      });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
      const line = (prefix: RegExp) =>
        new Promise<string>((resolve) => {
          const check = () => {
            const found = out.split("\n").find((l) => prefix.test(l));
            if (found) resolve(found);
            else child.stdout.once("data", check);
          };
          check();
        });
      return { child, line };
    });
    await Promise.all(contenders.map((c) => c.line(/^loaded$/)));
    for (const c of contenders) c.child.stdin.write("go\n");
    // Each winner holds the lock until every contender has decided.
    const outcomes = await Promise.all(contenders.map((c) => c.line(/^(won|lost)/)));
    for (const c of contenders) c.child.stdin.end("done\n");
    expect(outcomes.filter((o) => o === "won")).toHaveLength(1);
    for (const lost of outcomes.filter((o) => o !== "won")) expect(lost).toMatch(/pid \d+/);
  });

  it("refuses a second server and the CLIs on a DATA_DIR a server holds, then passes to the next after a kill -9", async () => {
    const dataDir = copyDataDir(template);
    const first = await server(dataDir);
    await first.ready;

    const second = await server(dataDir);
    const seed = run("seed-cli", { DATA_DIR: dataDir });
    const admin = run("create-admin-cli", { DATA_DIR: dataDir }, [
      "--email",
      "ops@voltio.test",
      "--password",
      "long-enough-password",
    ]);
    const [secondLine, seedLine, adminLine] = await Promise.all([second, seed, admin].map(refusal));
    expect(secondLine).toContain(`DATA_DIR ${dataDir} is in use`);
    expect(secondLine).toContain(`the Voltio server, pid ${first.child.pid}`);
    expect(secondLine).toContain("Stop that process first, or give this one another DATA_DIR");
    expect(seedLine).toContain(`pid ${first.child.pid}`);
    expect(adminLine).toContain(`pid ${first.child.pid}`);

    // The first server never noticed: it still serves.
    const port = /localhost:(\d+)/.exec(first.stdout())![1];
    expect((await fetch(`http://127.0.0.1:${port}/api/store`)).status).toBe(200);

    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");
    const next = await server(dataDir);
    await next.ready;
    expect(await stop(next)).toBe(0);
    // Released on a clean shutdown: the seed CLI may run now.
    expect(readdirSync(join(dataDir, "pglite.lock"))).toEqual([]);
    const seedAfter = run("seed-cli", { DATA_DIR: dataDir });
    expect(await seedAfter.exited).toBe(0);
    expect(seedAfter.stdout()).toContain("The store already has data: nothing seeded.");
  });
});

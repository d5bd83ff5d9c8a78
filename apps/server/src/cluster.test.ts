import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtServer } from "../test/builds";
import { createTestDatabase, testDatabaseKind } from "../test/database";
import { freePort, refusal, removeTempDirs, startServer, stop, tempDir } from "../test/processes";

const onPostgres = testDatabaseKind() === "postgres";

/** The server processes the supervisor runs (its children), by pid. */
const workersOf = (pid: number) => {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
  } catch {
    return [];
  }
};

describe("WEB_CONCURRENCY: several server processes on one port", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await builtServer();
  });
  afterAll(removeTempDirs);

  it.skipIf(onPostgres)("is refused on the embedded database, which belongs to one process", async () => {
    const line = await refusal(startServer({ DATA_DIR: tempDir("cluster"), WEB_CONCURRENCY: "2" }));
    expect(line).toBe(
      "Invalid configuration: WEB_CONCURRENCY=2 needs PostgreSQL: the embedded database belongs to one process. Set DATABASE_URL, or leave WEB_CONCURRENCY at 1.",
    );
  });

  it.runIf(onPostgres)("runs N processes on PostgreSQL and replaces one that dies", async () => {
    const database = await createTestDatabase("demo");
    const port = await freePort();
    const server = startServer({
      DATABASE_URL: database.url!,
      JWT_SECRET: "x".repeat(40),
      DATA_DIR: tempDir("cluster"),
      PORT: String(port),
      WEB_CONCURRENCY: "2",
      LOG_LEVEL: "info",
    });
    const listening = () => server.stdout().split("Server listening at").length - 1;
    try {
      await server.ready;
      expect(server.stdout()).toContain("in 2 processes");
      await expect.poll(() => workersOf(server.child.pid!).length, { timeout: 30_000 }).toBe(2);
      await expect.poll(listening, { timeout: 30_000 }).toBe(2);
      for (let i = 0; i < 10; i++)
        expect((await fetch(`http://127.0.0.1:${port}/api/health/live`)).status).toBe(200);

      const [victim] = workersOf(server.child.pid!);
      process.kill(Number(victim), "SIGKILL");
      await expect
        .poll(() => server.stderr(), { timeout: 30_000 })
        .toContain(`Server process ${victim} ended (SIGKILL)`);
      // The other process serves meanwhile; a new one takes the dead one's place.
      expect((await fetch(`http://127.0.0.1:${port}/api/products/1`)).status).toBe(200);
      await expect.poll(listening, { timeout: 30_000 }).toBe(3);
      expect(workersOf(server.child.pid!).filter((pid) => pid !== victim)).toHaveLength(2);
      expect(await stop(server)).toBe(0);
    } finally {
      await stop(server);
      await database.close();
    }
  });
});

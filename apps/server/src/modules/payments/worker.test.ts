import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../../../test/database";
import { sandboxProvider } from "../../integrations/payments/sandbox";
import { startPaymentsWorker, type PaymentsWorker } from "./worker";

let worker: PaymentsWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

describe("the payments worker in the background", () => {
  it("logs a round that fails while the database is away and keeps polling, without an unhandled rejection", async () => {
    const database = await createTestDatabase("empty");
    await database.close(); // every query now fails, as while PostgreSQL restarts
    const warn = vi.fn();
    worker = startPaymentsWorker({
      db: database.db,
      provider: sandboxProvider(database.db, { webhookSecret: "x" }),
      log: { warn, info() {} },
      pollMs: 10,
      maxBackoffMs: 40,
      background: true,
    });
    // Several rounds failed and each was logged: the timer went on after a failure, waiting longer each time
    // (workers/polling-worker.ts). A rejection left unhandled fails the run: vitest reports it as an error.
    await expect.poll(() => warn.mock.calls.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(warn.mock.calls.slice(0, 3)).toEqual(
      [20, 40, 40].map((retryInMs, i) => [
        { worker: "payments", error: expect.any(String), failures: i + 1, retryInMs },
        "payments worker round failed",
      ]),
    );
  });
});
